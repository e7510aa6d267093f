// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QFutureWatcher>
#include <QObject>
#include <QThreadPool>
#include <QtConcurrent>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

namespace cp::views {

/**
 * One background job at a time on a private thread pool, the newest request winning: a request
 * while a job runs sets the running job's cancel flag and waits its turn (only the newest waiting
 * request is kept), and only the newest request's result is delivered. What the estimate and the
 * comparison controllers share; each keeps its own signals.
 */
template<typename Result> class LatestJobRunner
{
public:
    /** Runs on the worker thread; should return early once `cancel` is set. */
    using Job = std::function<Result(const std::atomic<bool> *cancel)>;
    /** Called on the owner's thread with the newest request's result. */
    using Deliver = std::function<void(const Result &)>;

    LatestJobRunner(QObject *owner, Deliver deliver)
        : m_deliver(std::move(deliver))
    {
        m_pool.setMaxThreadCount(1);
        QObject::connect(&m_watcher, &QFutureWatcher<Result>::finished, owner,
                         [this] { onFinished(); });
    }

    ~LatestJobRunner()
    {
        if (m_cancel)
            m_cancel->store(true);
        m_watcher.waitForFinished();
    }

    LatestJobRunner(const LatestJobRunner &) = delete;
    LatestJobRunner &operator=(const LatestJobRunner &) = delete;

    void request(Job job)
    {
        ++m_generation;
        if (m_watcher.isRunning()) {
            if (m_cancel)
                m_cancel->store(true);
            m_queued = std::move(job);
            return;
        }
        start(std::move(job));
    }

    /** Drops the waiting request and cancels the running one; neither will be delivered. */
    void cancel()
    {
        m_queued.reset();
        ++m_generation;
        if (m_cancel)
            m_cancel->store(true);
    }

    bool isRunning() const { return m_watcher.isRunning() || m_queued.has_value(); }

    /** Blocks until nothing runs or waits (tests, exports and shutdown only, never the GUI). */
    void waitForIdle()
    {
        while (isRunning()) {
            m_watcher.waitForFinished();
            QCoreApplication::processEvents();
        }
    }

    /** Bumped by every request and cancel; a job can compare it to drop stale progress. */
    quint64 generation() const { return m_generation; }

private:
    void start(Job job)
    {
        auto cancel = std::make_shared<std::atomic<bool>>(false);
        m_cancel = cancel;
        m_running = m_generation;
        m_watcher.setFuture(QtConcurrent::run(
            &m_pool, [job = std::move(job), cancel]() { return job(cancel.get()); }));
    }

    void onFinished()
    {
        if (m_queued) {
            Job next = std::move(*m_queued);
            m_queued.reset();
            start(std::move(next));
            return;
        }
        if (m_running == m_generation)
            m_deliver(m_watcher.result());
    }

    Deliver m_deliver;
    QThreadPool m_pool;
    QFutureWatcher<Result> m_watcher;
    quint64 m_generation = 0;
    quint64 m_running = 0;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::optional<Job> m_queued;
};

} // namespace cp::views
