// The lbmc executable.
//
// Every wave of replication blocks allocates its accumulators and frees them
// again. With glibc's default trim threshold (128 KiB) the freed top of the
// heap goes back to the kernel after each wave and the next wave faults the
// same pages in again, which costs more than the kernels themselves when a
// replication is cheap (a direct maximum, max-load at n = 16). The process
// keeps up to 1 GiB of freed heap instead, and takes blocks of up to 32 MiB
// from the heap rather than from fresh mappings (setting one threshold turns
// off glibc's own adjustment of the other). Nothing else changes.
//
// Launched by mpirun or srun, the process is one rank of an MPI job for its
// whole life (engine/cluster.hpp).
#include <malloc.h>

#include "lbmc/engine/cluster.hpp"
#include "lbmc/exp/command.hpp"

int main(int argc, char** argv) {
#ifdef M_TRIM_THRESHOLD
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
#endif
  const lbmc::engine::cluster::Session session(argc, argv);
  return lbmc::exp::run_cli(argc, argv);
}
