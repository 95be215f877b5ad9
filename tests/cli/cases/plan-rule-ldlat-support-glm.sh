# Goldmont has the format-3 record, but its data-source and latency
# fields are reserved: the refusal says so (not "no enhanced record")
pebs-capture --plan --uarch glm -e load-latency
