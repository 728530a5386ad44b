// The program of the link checks (tests/CMakeLists.txt): empty, linked with every object of a
// layer's libraries, so that each object's calls must resolve below it.
int main() { return 0; }
