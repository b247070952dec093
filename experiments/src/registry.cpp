// The commands of the `lbmc` executable: the one place where a command is
// registered. Each line names a command whose folder defines
// `std::unique_ptr<Command> make_<name>_command()`; the order is that of
// `lbmc --help`.
#include "lbmc/exp/command.hpp"

#define LBMC_FOR_EACH_COMMAND(X) \
  X(maxload)                     \
  X(maxshift)                    \
  X(assign)                      \
  X(scatter)                     \
  X(rebalance)                   \
  X(dynamic)                     \
  X(reproduce)                   \
  X(validate)                    \
  X(compare)                     \
  X(resume)                      \
  X(extend)                      \
  X(merge)

namespace lbmc::exp {

#define LBMC_DECLARE_FACTORY(name) std::unique_ptr<Command> make_##name##_command();
LBMC_FOR_EACH_COMMAND(LBMC_DECLARE_FACTORY)
#undef LBMC_DECLARE_FACTORY

std::vector<std::unique_ptr<Command>> make_commands() {
  std::vector<std::unique_ptr<Command>> commands;
#define LBMC_MAKE_COMMAND(name) commands.push_back(make_##name##_command());
  LBMC_FOR_EACH_COMMAND(LBMC_MAKE_COMMAND)
#undef LBMC_MAKE_COMMAND
  return commands;
}

}  // namespace lbmc::exp
