// _lbmc: the engine as a Python extension module, under the pure-Python
// package `lbmc` (python/lbmc), which builds its functions, frames and
// exceptions from what this module gives.
//
// describe() lists the registered commands and their options as the command
// line declares them. run(arguments, on_progress, executable) runs one
// command line (the arguments after "lbmc") on a worker thread with an
// engine::Embedding in scope, while the calling thread, the GIL released,
// wakes every 50 ms to
//  - let Python handle its signals (PyErr_CheckSignals, a no-op off the main
//    thread): a KeyboardInterrupt sets the embedding's stop flag, the command
//    stops at its next block boundary as after SIGINT (checkpoint written,
//    no partial output), and the KeyboardInterrupt is raised once it has;
//  - call on_progress(label, done, planned, run) when the run's progress
//    moved.
// It returns the outcome (exit code, failure class and its one-line message)
// and the captured output: the result tables' CSV and JSON meta, and
// reproduce's claims; `seconds` is the time the command line itself took
// (parsing, checks, runs, output), so that what the module adds is known.
// Python turns a failure into its exception.
//
// Worker threads are kept for later commands: each keeps its OpenMP team,
// whose creation for every command would cost more than a small run (with
// the default spinning wait policy, the previous team's threads spin on
// while the new one starts: 18 ms a call instead of 1 on two cores).
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "lbmc/engine/embedding.hpp"
#include "lbmc/exp/command.hpp"

namespace py = pybind11;

namespace {

using lbmc::exp::CliOutcome;

const char* failure_name(CliOutcome::Failure failure) {
  switch (failure) {
    case CliOutcome::Failure::none: return "";
    case CliOutcome::Failure::bad_input: return "bad_input";
    case CliOutcome::Failure::out_of_memory: return "out_of_memory";
    case CliOutcome::Failure::interrupted: return "interrupted";
    case CliOutcome::Failure::runtime:
    case CliOutcome::Failure::remote: break;
  }
  return "runtime";
}

// One command running on its own thread.
struct Job {
  lbmc::engine::Embedding embedding;
  CliOutcome outcome;
  double seconds = 0.0;  // in run_embedded: the command line's own work
  std::mutex mutex;
  std::condition_variable ended;
  bool done = false;

  void run(const std::vector<std::string>& arguments) {
    {
      const lbmc::engine::EmbeddingScope scope(&embedding);
      const auto start = std::chrono::steady_clock::now();
      try {
        outcome = lbmc::exp::run_embedded(arguments);
      } catch (...) {  // run_embedded catches what derives from std::exception
        outcome = {3, CliOutcome::Failure::runtime, "lbmc: failed: an unknown error"};
      }
      seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    const std::lock_guard lock(mutex);
    done = true;
    ended.notify_all();
  }

  // Waits up to `timeout` for the end; true once ended.
  bool wait(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex);
    return ended.wait_for(lock, timeout, [this] { return done; });
  }
};

// Threads that run commands, one per command running at once, kept idle
// between commands. Never destroyed: idle workers wait until the process
// ends.
class Workers {
 public:
  static Workers& get() {
    static Workers* workers = new Workers;
    return *workers;
  }

  // Every task waiting has a worker waiting for it: a new one is started
  // when there are more tasks than waiting workers.
  void submit(std::function<void()> task) {
    const std::lock_guard lock(mutex_);
    tasks_.push_back(std::move(task));
    if (tasks_.size() > waiting_) {
      std::thread([this] { work(); }).detach();
    } else {
      wake_.notify_one();
    }
  }

 private:
  void work() {
    std::unique_lock lock(mutex_);
    for (;;) {
      ++waiting_;
      wake_.wait(lock, [this] { return !tasks_.empty(); });
      --waiting_;
      std::function<void()> task = std::move(tasks_.front());
      tasks_.pop_front();
      lock.unlock();
      task();
      lock.lock();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> tasks_;
  std::size_t waiting_ = 0;  // workers waiting for a task
};

py::dict run(const std::vector<std::string>& arguments, const py::object& on_progress, const std::string& executable) {
  auto job = std::make_shared<Job>();
  job->embedding.executable = executable;
  job->embedding.caller_draws_progress = !on_progress.is_none();
  Workers::get().submit([job, arguments] { job->run(arguments); });
  std::unique_ptr<py::error_already_set> pending;  // raised by a signal handler or on_progress
  lbmc::engine::ProgressSnapshot shown;
  for (;;) {
    bool ended = false;
    {
      const py::gil_scoped_release release;
      ended = job->wait(std::chrono::milliseconds(50));
    }
    if (ended) break;
    if (PyErr_CheckSignals() != 0) {
      pending = std::make_unique<py::error_already_set>();
      break;
    }
    if (on_progress.is_none()) continue;
    const lbmc::engine::ProgressSnapshot now = job->embedding.progress.read();
    if (now.run == 0 || (now.run == shown.run && now.done == shown.done && now.planned == shown.planned)) continue;
    shown = now;
    try {
      on_progress(now.label, now.done, now.planned, now.run);
    } catch (py::error_already_set& e) {
      pending = std::make_unique<py::error_already_set>(std::move(e));
      break;
    }
  }
  if (pending) {
    job->embedding.stop.store(true);
    const py::gil_scoped_release release;
    while (!job->wait(std::chrono::milliseconds(1000))) {
    }
  }
  if (pending) throw std::move(*pending);

  py::list tables;
  for (const auto& table : job->embedding.output.tables) tables.append(py::make_tuple(table.csv, table.meta_json));
  py::dict result;
  result["code"] = job->outcome.code;
  result["failure"] = failure_name(job->outcome.failure);
  result["message"] = job->outcome.message;
  result["tables"] = tables;
  result["claims_csv"] = job->embedding.output.claims_csv;
  result["seconds"] = job->seconds;
  return result;
}

py::list describe() {
  py::list commands;
  for (const lbmc::exp::CommandSpec& spec : lbmc::exp::describe_commands()) {
    py::list options;
    for (const lbmc::exp::OptionSpec& o : spec.options) {
      py::dict option;
      option["name"] = o.name;
      option["positional"] = o.positional;
      option["flag"] = o.flag;
      option["several"] = o.several;
      option["help"] = o.help;
      options.append(option);
    }
    py::dict command;
    command["name"] = spec.name;
    command["summary"] = spec.summary;
    command["help"] = spec.help;
    command["options"] = options;
    commands.append(command);
  }
  return commands;
}

}  // namespace

PYBIND11_MODULE(_lbmc, m) {
  m.doc() = "The lbmc engine; use the package `lbmc`, which wraps this module.";
  m.def("describe", &describe, "Every command and its options, as the command line declares them.");
  m.def("run", &run, py::arg("arguments"), py::arg("on_progress") = py::none(), py::arg("executable") = "",
        "Runs one command line (the arguments after 'lbmc'); returns its outcome and output.");
}
