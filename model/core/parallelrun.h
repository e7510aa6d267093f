// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <functional>

namespace cp::model {

/** Threads runInParallel uses for `count` tasks: the machine's hardware threads, at most count. */
std::size_t parallelWorkers(std::size_t count);

/**
 * Runs task(0) .. task(count - 1) on parallelWorkers(count) threads (this one among them), in
 * any order; the first exception a task throws is thrown here once all have ended. For pure
 * work whose results do not depend on which thread ran it.
 */
void runInParallel(std::size_t count, const std::function<void(std::size_t)> &task);

} // namespace cp::model
