/* A PIE for the symbol cases (testdata/sym/pie-setup.sh): a const table
 * of function pointers lands in .data.rel.ro (RELRO), counter in .bss. */
struct ops { int (*f)(int); int (*g)(int); };
static int inc(int x){return x+1;}
static int dec(int x){return x-1;}
const struct ops table_ops = { inc, dec };
int counter[64];
int main(int argc, char **argv){(void)argv; return table_ops.f(argc)+counter[3];}
