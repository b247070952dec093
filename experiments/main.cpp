// The lbmc executable.
#include "lbmc/exp/command.hpp"

int main(int argc, char** argv) { return lbmc::exp::run_cli(argc, argv); }
