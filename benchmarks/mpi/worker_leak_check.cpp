// Linked into perfzero-worker-mpi alone (never into the family, which the unit tests link too).
// Under AddressSanitizer (the asan preset), leak checking is off in this worker: Open MPI's plugins
// keep allocations to the end by design and are unloaded at MPI_Finalize, so LeakSanitizer reports
// leaks it cannot even attribute (frames in "<unknown module>") and aborts every rank. The other
// checks (overflows, use after free, UBSan) stay on.
#if defined(__SANITIZE_ADDRESS__)
extern "C" int __lsan_is_turned_off() { return 1; }
#endif
