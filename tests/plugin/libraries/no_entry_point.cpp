// A shared library that is no kernel library: it has no weft_plugin entry point.
extern "C" int not_a_kernel_library() { return 0; }
