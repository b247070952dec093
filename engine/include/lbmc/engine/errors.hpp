// Error kinds that map onto the exit codes of the command line:
// InputError (bad usage or bad input, exit 2) and RuntimeFailure (a run or
// I/O failure, exit 3). Messages are one line and name the offending value.
#pragma once

#include <stdexcept>
#include <string>

namespace lbmc::engine {

//! Bad usage or bad input: an unknown law, a parameter out of range, a
//! malformed list. The message names the value and why it is rejected.
class InputError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

//! A failure while running or writing output.
class RuntimeFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace lbmc::engine
