// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/core/parallelrun.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace cp::model {

std::size_t parallelWorkers(std::size_t count)
{
    return std::min<std::size_t>(count, std::max(1U, std::thread::hardware_concurrency()));
}

void runInParallel(std::size_t count, const std::function<void(std::size_t)> &task)
{
    std::atomic<std::size_t> next {0};
    std::exception_ptr failure;
    std::mutex failureMutex;
    const auto work = [&] {
        for (std::size_t i = next++; i < count; i = next++) {
            try {
                task(i);
            } catch (...) {
                const std::lock_guard lock(failureMutex);
                if (!failure)
                    failure = std::current_exception();
            }
        }
    };
    std::vector<std::thread> helpers;
    for (std::size_t t = 1; t < parallelWorkers(count); ++t)
        helpers.emplace_back(work);
    work();
    for (std::thread &helper : helpers)
        helper.join();
    if (failure)
        std::rethrow_exception(failure);
}

} // namespace cp::model
