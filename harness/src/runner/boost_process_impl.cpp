// Boost.Process v2 is built in this one translation unit (BOOST_PROCESS_V2_SEPARATE_COMPILATION).
#include <boost/optional.hpp>  // Boost 1.81's v2 headers use boost::optional without including it
#include <boost/process/v2/src.hpp>
