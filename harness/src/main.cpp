// perfzero: the benchmark harness's command-line entry point.
#include "app/commands.hpp"

int main(int argc, char** argv) { return perfzero::app::perfzero_main(argc, argv); }
