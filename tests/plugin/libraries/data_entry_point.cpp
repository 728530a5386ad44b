// A kernel library whose `weft_plugin` is a variable, not a function.
extern "C" {
__attribute__((visibility("default"))) int weft_plugin = 42;
}
