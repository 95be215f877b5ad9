# --merge refuses counts that would wrap a sum of the report (exit 1, the
# YAML line named; no report when nothing else was read): 2^60 samples in
# all at most, latencies times counts within 64 bits.  2^64-1 + 5 samples
# on one line used to print 4.
cd $TMP
head='pebs_c2c: 2\ntopology: {}\ndsrc: [0x10668800842]\nthreads: [[100, 1]]\nips: [0x401000]\nother: []\ncells:\n'
printf -- "$head"'  - "7f0000001000,0,0,0,1,10,18446744073709551615 8,0,0,0,1,10,5"\n' >wrap.yaml
pebs-c2c --merge -f csv wrap.yaml | wc -l; echo "rc ${PIPESTATUS[0]}"
# (2^32-1) x (2^32+2) cycles: one more than 2^64-1
printf -- "$head"'  - "7f0000001000,0,0,0,1,4294967295,4294967298"\n' >cyc.yaml
pebs-c2c --merge -f csv cyc.yaml | wc -l; echo "rc ${PIPESTATUS[0]}"
# at the bound: exact
printf -- "$head"'  - "7f0000001000,0,0,0,1,15,1152921504606846975 8,0,0,0,1,0,1"\n' >max.yaml
pebs-c2c --merge -f csv max.yaml | cut -d, -f1-6,16; echo "rc ${PIPESTATUS[0]}"
# two results that pass it together
printf -- "$head"'  - "7f0000001000,0,0,0,1,1,576460752303423488"\n' >half.yaml
pebs-c2c --merge -f csv half.yaml half.yaml | cut -d, -f1-6,16; echo "rc ${PIPESTATUS[0]}"
pebs-c2c --merge -f csv half.yaml half.yaml max.yaml | wc -l; echo "rc ${PIPESTATUS[0]}"
# products of counts in 128 bits: 2^58 stores by each of two threads to
# their own 8 bytes are false sharing (was "mixed": counts times 100
# wrapped); 2^58 loads of latency 1 and 2^58 of 2 have p99 2 (was 1)
printf 'pebs_c2c: 2\ndsrc: [0x144]\nthreads: [[100, 1], [100, 2]]\nips: [0x401010]\nother: []\ncells:\n  - "10000,0,0,0,1,0,288230376151711744 8,0,0,1,2,0,288230376151711744"\n' >big.yaml
pebs-c2c --merge --show-all -f csv big.yaml | cut -d, -f1,5,15
printf 'pebs_c2c: 2\ndsrc: [0x200100142]\nthreads: [[100, 1], [100, 2]]\nips: [0x401010]\nother: []\ncells:\n  - "10000,0,0,0,1,1,288230376151711744 0,0,0,1,2,2,288230376151711744"\n' >big2.yaml
pebs-c2c --merge --show-all -f csv big2.yaml | cut -d, -f1,6,27-29
