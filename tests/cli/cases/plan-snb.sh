# Sandy Bridge: load latency only on PMC3 (kernel constraint) -> 0x800000008
pebs-capture --plan --uarch snb -e load-latency:ldlat=3
