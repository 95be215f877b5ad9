# Nehalem: load latency on PMC0 = the SDM example 00000001_00000001H
pebs-capture --plan --uarch nhm -e load-latency:ldlat=30
