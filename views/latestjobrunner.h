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
 *
 * Every job gets a watcher of its own, and the next job starts only from the previous one's
 * finished signal: one watcher re-pointed from job to job keeps the finished event an earlier job
 * posted (QFutureWatcher::setFuture does not remove it), and a request started between a job's
 * end and that event left an older waiting request to be delivered as the newest (the Fabric view
 * then showed the empty plan's "no fabric" after a plan was opened).
 */
template<typename Result> class LatestJobRunner
{
public:
    /** Runs on the worker thread; should return early once `cancel` is set. */
    using Job = std::function<Result(const std::atomic<bool> *cancel)>;
    /** Called on the owner's thread with the newest request's result. */
    using Deliver = std::function<void(const Result &)>;

    LatestJobRunner(QObject *owner, Deliver deliver)
        : m_owner(owner)
        , m_deliver(std::move(deliver))
    {
        m_pool.setMaxThreadCount(1);
    }

    ~LatestJobRunner()
    {
        if (m_cancel)
            m_cancel->store(true);
        m_pool.waitForDone();
        delete m_watcher; // never delivers now: its events go with it
    }

    LatestJobRunner(const LatestJobRunner &) = delete;
    LatestJobRunner &operator=(const LatestJobRunner &) = delete;

    void request(Job job)
    {
        ++m_generation;
        // A job that has ended but whose finished signal is still on its way counts as
        // running: starting past it would leave an older waiting request behind, which
        // onFinished would later start and deliver as the newest.
        if (m_watcher) {
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

    /** A job runs, waits, or has finished without its result handled yet. */
    bool isRunning() const { return m_watcher != nullptr || m_queued.has_value(); }

    /** Blocks until nothing runs or waits (tests, exports and shutdown only, never the GUI). */
    void waitForIdle()
    {
        // The finished signal arrives as an event posted after the job ends, so the loop runs
        // until onFinished has handled the last job, not merely until it has ended.
        while (isRunning()) {
            if (m_watcher)
                m_watcher->waitForFinished();
            QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        }
    }

    /** Bumped by every request and cancel; a job can compare it to drop stale progress. */
    quint64 generation() const { return m_generation; }

private:
    void start(Job job)
    {
        auto cancel = std::make_shared<std::atomic<bool>>(false);
        m_cancel = cancel;
        const quint64 generation = m_generation;
        auto *watcher = new QFutureWatcher<Result>();
        m_watcher = watcher;
        QObject::connect(watcher, &QFutureWatcher<Result>::finished, m_owner,
                         [this, watcher, generation] { onFinished(watcher, generation); });
        watcher->setFuture(QtConcurrent::run(
            &m_pool, [job = std::move(job), cancel]() { return job(cancel.get()); }));
    }

    void onFinished(QFutureWatcher<Result> *watcher, quint64 generation)
    {
        if (watcher != m_watcher)
            return; // cannot happen: each watcher is deleted once handled
        m_watcher = nullptr;
        const Result result = watcher->result();
        watcher->deleteLater();
        if (m_queued) {
            Job next = std::move(*m_queued);
            m_queued.reset();
            start(std::move(next));
            return;
        }
        if (generation == m_generation)
            m_deliver(result);
    }

    QObject *m_owner;
    Deliver m_deliver;
    QThreadPool m_pool;
    QFutureWatcher<Result> *m_watcher = nullptr; ///< the running or unhandled job's
    quint64 m_generation = 0;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::optional<Job> m_queued;
};

} // namespace cp::views
