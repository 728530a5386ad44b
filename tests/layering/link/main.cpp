// The executable of the planted upward call (ops_calls_engine.cpp): never meant to link.
int main() { return 0; }
