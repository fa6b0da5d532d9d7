#pragma once
// MPI once per worker process: a worker runs one method and exits, so MPI is finalized at the
// method's end.
#include <mpi.h>

namespace perfzero::mpi {

class Session {
 public:
  Session() {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (initialized == 0) MPI_Init(nullptr, nullptr);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  ~Session() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized == 0) MPI_Finalize();
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace perfzero::mpi
