// perfzero: the benchmark harness's command-line entry point.
#include "commands/commands.hpp"

int main(int argc, char** argv) { return perfzero::commands::perfzero_main(argc, argv); }
