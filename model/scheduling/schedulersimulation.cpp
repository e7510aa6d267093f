// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/scheduling/schedulersimulation.h"

#include "model/scheduling/clusterscheduler.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory_resource>
#include <queue>
#include <random>
#include <set>
#include <tuple>

namespace cp::model {

namespace {

enum class EventKind : std::uint8_t {
    Arrival,
    Completion,
    Failure,
    Repair,
    BackfillTick,
    ServiceScale
};

/**
 * 16 bytes: the heap of pending events moves these on every push and pop. A completion is made
 * from the running job that ends first when it is due (Simulation::nextEvent), so none is ever
 * stale: a stopped job has left the running set.
 */
struct Event
{
    Event(double time, EventKind kind, int index, bool fromTrace = false)
        : time(time)
        , index(index)
        , kind(kind)
        , fromTrace(fromTrace)
    { }
    double time;
    int index; ///< class (arrival), job (completion), server (repair), trace job (arrival)
    EventKind kind;
    bool fromTrace;
    bool operator>(const Event &other) const { return time > other.time; }
};

struct Job
{
    int classIndex = 0;
    int gpus = 1;
    int priority = 0;
    double submitSeconds = 0;
    double remainingSeconds = 0; ///< work left, restarts included
    double checkpointIntervalSeconds = 0;
    double firstStartSeconds = -1;
    int serviceIndex = -1; ///< a replica of this service; -1 for a batch job
    double runtimeSeconds = 0; ///< the work asked for, before any restart
    int partition = -1; ///< the servers it may run on (ServerPool's partitions); -1: any
    /** Wall time per second of work on its current placement (scatteredSlowdown). */
    double slowdown = 1;
    bool held = false; ///< set aside once by its class's QoS limit
};

/** A service replica runs until the service scales down: it never ends on its own. */
constexpr double replicaSeconds = std::numeric_limits<double>::infinity();

/**
 * A waiting job in start order (priority, then submit time, then id), with what the backfill
 * pass checks first: its GPUs and the work it has left. The pass looks at up to 500 of these each
 * time and turns most away on these two, without reading the job itself.
 */
static_assert(sizeof(Event) == 16);

struct QueueEntry
{
    int negativePriority;
    double submitSeconds;
    int jobId;
    int gpus;
    double remainingSeconds;
    bool operator<(const QueueEntry &other) const
    {
        return std::tie(negativePriority, submitSeconds, jobId)
            < std::tie(other.negativePriority, other.submitSeconds, other.jobId);
    }
};

/** A running job by when it ends, with its GPUs: the backfill reservation walks these in end
 * order and reads the GPUs here rather than from the job (a cache miss each). */
struct RunningEnd
{
    double endSeconds;
    int jobId;
    int gpus;
    bool operator<(const RunningEnd &other) const
    {
        return endSeconds < other.endSeconds
            || (endSeconds == other.endSeconds && jobId < other.jobId);
    }
};

struct RunningJob
{
    bool running = false;
    Allocation allocation; ///< kept between runs of the id, so its storage is reused
    double startSeconds = 0;
    double endSeconds = 0;
};

/** Draws a runtime of mean `mean` and coefficient of variation `cv` (runtimeCv). */
double drawRuntime(std::mt19937_64 &random, double mean, double cv)
{
    if (cv <= 0)
        return mean;
    if (std::abs(cv - 1.0) < 1e-12)
        return std::exponential_distribution<double>(1.0 / mean)(random);
    const double sigma = std::sqrt(std::log1p(cv * cv));
    return std::lognormal_distribution<double>(std::log(mean) - 0.5 * sigma * sigma, sigma)(random);
}

double quantile(std::vector<double> values, double q)
{
    if (values.empty())
        return 0;
    const std::size_t k = std::min(
        values.size() - 1, static_cast<std::size_t>(q * static_cast<double>(values.size())));
    std::nth_element(values.begin(), values.begin() + static_cast<long>(k), values.end());
    return values[k];
}

/** The whole simulation's state, advanced event by event. */
class Simulation
{
public:
    Simulation(const SchedulerCluster &cluster, const SchedulerWorkload &workload,
               const SimulationOptions &options)
        : m_cluster(cluster)
        , m_classes(workload.classes)
        , m_services(workload.services)
        , m_trace(workload.trace)
        , m_options(options)
        , m_pool(cluster, options.topologyAware, options.spread)
        , m_random(options.seed)
        , m_jobsOnServer(cluster.gpusPerServer.size())
        , m_waits(std::max<std::size_t>(1, workload.classes.size()))
        , m_submittedByClass(m_waits.size(), 0)
        , m_serviceMembers(workload.services.size())
        , m_serviceRunning(workload.services.size(), 0)
        , m_serviceTarget(workload.services.size(), 0)
        , m_serviceServedSeconds(workload.services.size(), 0.0)
        , m_serviceDemandedSeconds(workload.services.size(), 0.0)
        , m_runningGpusByClass(m_waits.size(), 0)
        , m_heldByClass(m_waits.size())
        , m_heldCountByClass(m_waits.size(), 0)
        , m_scatteredByClass(m_waits.size(), 0)
    {
        for (const JobClass &job : m_classes) {
            int partition = -1;
            for (std::size_t p = 0; p < cluster.partitions.size(); ++p)
                if (!job.partition.empty() && cluster.partitions[p].name == job.partition)
                    partition = static_cast<int>(p);
            m_classPartition.push_back(partition);
        }
    }

    SimulationResult run(const std::function<void(double)> &progress,
                         const std::atomic<bool> *cancel);

private:
    void seedEvents();
    Event nextEvent();
    void addBusyTime(double from, double to);
    void advanceTo(double time);
    void arrive(const Event &event);
    void complete(const Event &event);
    void fail();
    void schedule();
    void start(int jobId, Allocation allocation); ///< a queued job
    void launch(int jobId, Allocation allocation); ///< onto its servers
    void stop(int jobId, double until);
    void backfill(int headId);
    void admitWhatFits(int headId);
    void startInOtherPartitions(int headId);
    bool startIfItFits(int jobId);
    void interrupt(int jobId, double &lostGpuSeconds);
    std::optional<Allocation> preemptFor(int replicaId);
    void scaleServices(int hour);
    int newJobId(const Job &job);
    void enqueue(int jobId);
    QueueEntry queueEntry(int jobId) const
    {
        const Job &job = m_jobs[jobId];
        return {-job.priority, job.submitSeconds, jobId, job.gpus, job.remainingSeconds};
    }
    const JobClass *classOf(const Job &job) const;
    bool overLimit(const Job &job) const;
    void hold(int jobId);
    void releaseHeld(int classIndex);
    int extraLeaves(const Allocation &allocation) const;
    double slowdownOn(const Job &job, const Allocation &allocation) const;
    void addScatterLoss(const Job &job, double wallSeconds);
    SimulationResult results() const;
    /** By class, how long each counted job that never started has waited at the horizon. */
    std::vector<std::vector<double>> waitsOfJobsNeverStarted() const;

    const SchedulerCluster &m_cluster;
    const std::vector<JobClass> &m_classes;
    const std::vector<ServiceClass> &m_services;
    const std::vector<TraceJob> &m_trace;
    const SimulationOptions &m_options;
    ServerPool m_pool;
    std::mt19937_64 m_random;
    /** Failures, repairs, backfill ticks and service scaling. Arrivals come from the two
     * sources below and completions from m_runningByEnd: they are nearly all events, and each
     * kept out of the heap saves a push and a pop. */
    std::priority_queue<Event, std::vector<Event>, std::greater<>> m_events;
    std::vector<double> m_nextArrivalSeconds; ///< each class's next arrival
    std::vector<int> m_traceOrder; ///< trace jobs by submit time
    std::size_t m_nextTraceJob = 0; ///< into m_traceOrder
    std::vector<Job> m_jobs;
    /** The nodes of the two ordered sets below: a year brings millions of inserts and erases of
     * small nodes, which a pool serves faster than the general allocator. */
    std::pmr::unsynchronized_pool_resource m_setNodes;
    /** Waiting jobs in start order: (-priority, submit, id). */
    std::pmr::set<QueueEntry> m_queue {&m_setNodes};
    std::vector<RunningJob> m_running; ///< by job id
    std::pmr::set<RunningEnd> m_runningByEnd {&m_setNodes};
    std::vector<std::vector<int>> m_jobsOnServer;
    std::vector<std::vector<double>> m_waits;
    std::vector<long long> m_submittedByClass;
    std::vector<int> m_freeIds;
    double m_now = 0;
    double m_allocatedGpuSeconds = 0;
    double m_lostGpuSeconds = 0;
    double m_fragmentedGpuSeconds = 0;
    double m_offeredGpuSeconds = 0;
    long long m_interruptions = 0;
    long long m_replicaInterruptions = 0;
    long long m_preemptions = 0;
    double m_preemptedGpuSeconds = 0; ///< work lost by jobs stopped for services
    long long m_completed = 0;
    long long m_eventCount = 0;
    long long m_submitted = 0;
    double m_lastBackfill = -std::numeric_limits<double>::infinity();
    bool m_backfillTickPending = false;
    /** Per service: its replicas (queued or running), how many run, how many it wants now,
     * and the replica-time served and asked for. */
    std::vector<std::vector<int>> m_serviceMembers;
    std::vector<int> m_serviceRunning;
    std::vector<int> m_serviceTarget;
    std::vector<double> m_serviceServedSeconds;
    std::vector<double> m_serviceDemandedSeconds;
    std::vector<double> m_busyGpuSecondsByDay;
    std::vector<RecordedJob> m_recorded;
    std::vector<int> m_classPartition; ///< each class's partition index; -1: any server
    /** QoS: GPUs each class's running jobs hold, and its jobs set aside at the limit, in queue
     * order, until enough of them end. */
    std::vector<long long> m_runningGpusByClass;
    std::vector<std::set<QueueEntry>> m_heldByClass;
    std::vector<long long> m_heldCountByClass;
    std::vector<long long> m_scatteredByClass;
    double m_scatterGpuSeconds = 0;
};

/** The job's class when it names one of the portfolio's (a trace's classes may not). */
const JobClass *Simulation::classOf(const Job &job) const
{
    if (job.serviceIndex >= 0 || job.classIndex < 0
        || job.classIndex >= static_cast<int>(m_classes.size()))
        return nullptr;
    return &m_classes[static_cast<std::size_t>(job.classIndex)];
}

bool Simulation::overLimit(const Job &job) const
{
    const JobClass *c = classOf(job);
    return c && c->maxRunningGpus > 0
        && m_runningGpusByClass[job.classIndex] + job.gpus > c->maxRunningGpus;
}

/** Out of the queue until its class's running jobs leave it room (Slurm: QOSGrpGRES pending). */
void Simulation::hold(int jobId)
{
    Job &job = m_jobs[jobId];
    m_queue.erase(queueEntry(jobId));
    m_heldByClass[job.classIndex].insert(queueEntry(jobId));
    if (!job.held && job.submitSeconds >= m_options.warmupSeconds)
        ++m_heldCountByClass[job.classIndex];
    job.held = true;
}

/** Back into the queue: the held jobs, first first, that fit under the limit together. */
void Simulation::releaseHeld(int classIndex)
{
    auto &held = m_heldByClass[classIndex];
    long long room = m_classes[classIndex].maxRunningGpus - m_runningGpusByClass[classIndex];
    while (!held.empty()) {
        const auto entry = *held.begin();
        const int gpus = entry.gpus;
        if (gpus > room)
            return;
        room -= gpus;
        held.erase(held.begin());
        m_queue.insert(entry);
    }
}

/** Leaf switches `allocation` spans beyond the fewest its servers could have taken. */
int Simulation::extraLeaves(const Allocation &allocation) const
{
    // Placements list each leaf's servers together (ServerPool::place), so leaves are counted
    // where the leaf changes.
    int leaves = 1;
    for (std::size_t i = 1; i < allocation.size(); ++i)
        if (m_pool.leafOf(allocation[i].first) != m_pool.leafOf(allocation[i - 1].first))
            ++leaves;
    const int perLeaf = m_pool.serversPerLeaf();
    return leaves - (static_cast<int>(allocation.size()) + perLeaf - 1) / perLeaf;
}

/** Its class's slowdown on `allocation`'s leaves against the fewest it could have had. */
double Simulation::slowdownOn(const Job &job, const Allocation &allocation) const
{
    const JobClass *c = classOf(job);
    if (!c || c->networkShare.value_or(0) <= 0 || allocation.size() < 2)
        return 1.0;
    const int perLeaf = m_pool.serversPerLeaf();
    const int fewest = (static_cast<int>(allocation.size()) + perLeaf - 1) / perLeaf;
    return scatteredSlowdown(*c->networkShare, m_cluster.leafDownUpRatio,
                             fewest + extraLeaves(allocation), fewest);
}

/** GPU-time a scattered job spent beyond its work over `wallSeconds` of running. */
void Simulation::addScatterLoss(const Job &job, double wallSeconds)
{
    m_scatterGpuSeconds += job.gpus * wallSeconds * (1.0 - 1.0 / job.slowdown);
}

void Simulation::seedEvents()
{
    m_nextArrivalSeconds.assign(m_classes.size(), std::numeric_limits<double>::infinity());
    for (std::size_t c = 0; c < m_classes.size(); ++c)
        if (m_classes[c].arrivalsPerSecond > 0)
            m_nextArrivalSeconds[c]
                = std::exponential_distribution<double>(m_classes[c].arrivalsPerSecond)(m_random);
    m_traceOrder.resize(m_trace.size());
    for (std::size_t i = 0; i < m_trace.size(); ++i)
        m_traceOrder[i] = static_cast<int>(i);
    std::stable_sort(m_traceOrder.begin(), m_traceOrder.end(), [this](int a, int b) {
        return m_trace[a].submitSeconds < m_trace[b].submitSeconds;
    });
    if (!m_services.empty())
        m_events.push({0.0, EventKind::ServiceScale, 0});
    const double serverFailuresPerSecond = m_cluster.serverMtbfSeconds > 0
        ? static_cast<double>(m_pool.servers()) / m_cluster.serverMtbfSeconds
        : 0.0;
    if (serverFailuresPerSecond > 0)
        m_events.push({std::exponential_distribution<double>(serverFailuresPerSecond)(m_random),
                       EventKind::Failure, 0});
}

/**
 * The earliest of the heap's next event, the first end of a running job, the classes' next
 * arrivals and the trace's next job (taken off its source); at equal times in that order (a
 * completion before an arrival). Time infinity when nothing is left.
 */
Event Simulation::nextEvent()
{
    constexpr double never = std::numeric_limits<double>::infinity();
    const double heapTime = m_events.empty() ? never : m_events.top().time;
    std::size_t firstClass = 0;
    for (std::size_t c = 1; c < m_nextArrivalSeconds.size(); ++c)
        if (m_nextArrivalSeconds[c] < m_nextArrivalSeconds[firstClass])
            firstClass = c;
    const double classTime
        = m_nextArrivalSeconds.empty() ? never : m_nextArrivalSeconds[firstClass];
    const double traceTime = m_nextTraceJob < m_traceOrder.size()
        ? m_trace[static_cast<std::size_t>(m_traceOrder[m_nextTraceJob])].submitSeconds
        : never;
    // The running job that ends first (a service replica never does): completions need no
    // event of their own, the running jobs are kept in end order anyway.
    const double endTime = m_runningByEnd.empty() ? never : m_runningByEnd.begin()->endSeconds;
    const double arrivalTime = std::min(classTime, traceTime);
    if (heapTime <= endTime && heapTime <= arrivalTime) {
        if (m_events.empty())
            return {never, EventKind::BackfillTick, 0};
        const Event event = m_events.top();
        m_events.pop();
        return event;
    }
    if (endTime <= arrivalTime) {
        const int jobId = m_runningByEnd.begin()->jobId;
        return {endTime, EventKind::Completion, jobId};
    }
    if (traceTime <= classTime)
        return {traceTime, EventKind::Arrival, m_traceOrder[m_nextTraceJob++], true};
    // arrive() draws the class's next arrival.
    m_nextArrivalSeconds[firstClass] = never;
    return {classTime, EventKind::Arrival, static_cast<int>(firstClass)};
}

/** The GPUs allocated from `from` to `to`, split over the days they fall in. */
void Simulation::addBusyTime(double from, double to)
{
    const double busy = static_cast<double>(m_pool.upGpus() - m_pool.freeGpus());
    while (to > from) {
        const std::size_t day = static_cast<std::size_t>(from / 86400.0);
        const double dayEnd = (static_cast<double>(day) + 1) * 86400.0;
        const double until = std::min(to, dayEnd);
        if (m_busyGpuSecondsByDay.size() <= day)
            m_busyGpuSecondsByDay.resize(day + 1, 0.0);
        m_busyGpuSecondsByDay[day] += busy * (until - from);
        from = until;
    }
}

void Simulation::advanceTo(double time)
{
    const double dt = time - m_now;
    // The first queued job could not start at the last event: the free GPUs it could use (its
    // partition's) idle for it. Free GPUs of other partitions idle for want of jobs there, which
    // is no fragmentation (a starving "dev" partition read as 25% fragmentation of the cluster).
    if (dt > 0 && !m_queue.empty())
        m_fragmentedGpuSeconds
            += static_cast<double>(m_pool.freeGpus(m_jobs[m_queue.begin()->jobId].partition)) * dt;
    addBusyTime(m_now, time);
    for (std::size_t s = 0; s < m_services.size() && dt > 0; ++s) {
        m_serviceServedSeconds[s] += m_serviceRunning[s] * dt;
        m_serviceDemandedSeconds[s] += m_serviceTarget[s] * dt;
    }
    m_now = time;
}

void Simulation::arrive(const Event &event)
{
    Job job;
    if (event.fromTrace) {
        const TraceJob &t = m_trace[event.index];
        job.classIndex = std::clamp(t.classIndex, 0, static_cast<int>(m_waits.size()) - 1);
        job.gpus = t.gpus;
        job.remainingSeconds = t.runtimeSeconds;
        if (job.classIndex < static_cast<int>(m_classes.size())) {
            job.priority = m_classes[job.classIndex].priority;
            job.checkpointIntervalSeconds = m_classes[job.classIndex].checkpointIntervalSeconds;
        }
    } else {
        const JobClass &c = m_classes[event.index];
        job.classIndex = event.index;
        job.gpus = c.gpus;
        job.priority = c.priority;
        job.checkpointIntervalSeconds = c.checkpointIntervalSeconds;
        job.remainingSeconds = drawRuntime(m_random, c.meanRuntimeSeconds, c.runtimeCv);
        m_nextArrivalSeconds[static_cast<std::size_t>(event.index)]
            = m_now + std::exponential_distribution<double>(c.arrivalsPerSecond)(m_random);
    }
    job.submitSeconds = m_now;
    job.runtimeSeconds = job.remainingSeconds;
    if (job.classIndex < static_cast<int>(m_classPartition.size()))
        job.partition = m_classPartition[static_cast<std::size_t>(job.classIndex)];
    // A job bigger than its partition (or its class's QoS limit) can never start: it is
    // neither queued nor load the cluster could serve (a 100,000-GPU job of a trace made a
    // 128-GPU cluster 8.9% loaded and 0% busy).
    const JobClass *c = classOf(job);
    if (job.gpus > m_pool.totalGpus(job.partition) || job.gpus < 1
        || (c && c->maxRunningGpus > 0 && job.gpus > c->maxRunningGpus))
        return;
    m_offeredGpuSeconds += job.remainingSeconds * job.gpus;
    const int id = newJobId(job);
    if (job.submitSeconds >= m_options.warmupSeconds) {
        ++m_submitted;
        ++m_submittedByClass[job.classIndex];
    }
    enqueue(id);
}

/** Ids of finished jobs are reused: a year of millions of jobs keeps only those in flight. */
int Simulation::newJobId(const Job &job)
{
    if (m_freeIds.empty()) {
        m_jobs.push_back(job);
        return static_cast<int>(m_jobs.size()) - 1;
    }
    const int id = m_freeIds.back();
    m_freeIds.pop_back();
    m_jobs[id] = job;
    return id;
}

void Simulation::enqueue(int jobId)
{
    const Job &job = m_jobs[jobId];
    if (overLimit(job)) {
        hold(jobId);
        return;
    }
    // With nobody queued ahead, a job that fits starts at once (the scheduler's pass would pick
    // it first anyway), without a round trip through the queue.
    if (m_queue.empty())
        if (std::optional<Allocation> allocation = m_pool.place(job.gpus, job.partition)) {
            launch(jobId, std::move(*allocation));
            return;
        }
    m_queue.insert(queueEntry(jobId));
}

/**
 * The services' replicas for `hour` of the run: new ones queue first in line (the highest
 * priority), surplus ones leave, queued ones before running ones.
 */
void Simulation::scaleServices(int hour)
{
    for (std::size_t s = 0; s < m_services.size(); ++s) {
        const ServiceClass &service = m_services[s];
        const int target = service.replicasByHour.empty()
            ? 0
            : service
                  .replicasByHour[static_cast<std::size_t>(hour) % service.replicasByHour.size()];
        m_serviceTarget[s] = target;
        std::vector<int> &members = m_serviceMembers[s];
        while (static_cast<int>(members.size()) < target) {
            Job replica;
            replica.gpus = service.gpusPerReplica;
            replica.priority = std::numeric_limits<int>::max();
            replica.submitSeconds = m_now;
            replica.remainingSeconds = replicaSeconds;
            replica.serviceIndex = static_cast<int>(s);
            const int id = newJobId(replica);
            members.push_back(id);
            enqueue(id);
        }
        while (static_cast<int>(members.size()) > target) {
            // Prefer a replica still waiting; else the newest running one.
            auto victim = std::find_if(members.rbegin(), members.rend(), [this](int id) {
                return static_cast<std::size_t>(id) >= m_running.size() || !m_running[id].running;
            });
            if (victim == members.rend())
                victim = members.rbegin();
            const int id = *victim;
            members.erase(std::next(victim).base());
            if (static_cast<std::size_t>(id) < m_running.size() && m_running[id].running) {
                stop(id, m_now);
            } else {
                m_queue.erase(queueEntry(id));
            }
            m_freeIds.push_back(id);
        }
    }
    m_events.push({(hour + 1) * 3600.0, EventKind::ServiceScale, hour + 1});
}

void Simulation::start(int jobId, Allocation allocation)
{
    m_queue.erase(queueEntry(jobId));
    launch(jobId, std::move(allocation));
}

void Simulation::launch(int jobId, Allocation allocation)
{
    Job &job = m_jobs[jobId];
    if (job.serviceIndex >= 0) {
        ++m_serviceRunning[job.serviceIndex];
    } else if (job.firstStartSeconds < 0) {
        job.firstStartSeconds = m_now;
        if (job.submitSeconds >= m_options.warmupSeconds)
            m_waits[job.classIndex].push_back(m_now - job.submitSeconds);
        if (m_options.recordJobs)
            m_recorded.push_back({job.submitSeconds, m_now - job.submitSeconds, job.runtimeSeconds,
                                  job.gpus, job.classIndex});
    }
    m_pool.take(allocation);
    for (const auto &[server, gpus] : allocation)
        m_jobsOnServer[server].push_back(jobId);
    job.slowdown = slowdownOn(job, allocation);
    if (job.serviceIndex < 0) {
        m_runningGpusByClass[job.classIndex] += job.gpus;
        if (allocation.size() > 1 && job.submitSeconds >= m_options.warmupSeconds
            && extraLeaves(allocation) > 0)
            ++m_scatteredByClass[job.classIndex];
    }
    const double end
        = job.serviceIndex >= 0 ? replicaSeconds : m_now + job.remainingSeconds * job.slowdown;
    if (m_running.size() <= static_cast<std::size_t>(jobId))
        m_running.resize(jobId + 1);
    RunningJob &running = m_running[jobId];
    running.running = true;
    running.allocation.assign(allocation.begin(), allocation.end());
    running.startSeconds = m_now;
    running.endSeconds = end;
    m_runningByEnd.insert({end, jobId, job.gpus});
}

/** Takes a running job off its servers, counting its GPU-time up to `until`. */
void Simulation::stop(int jobId, double until)
{
    RunningJob &running = m_running[jobId];
    Job &job = m_jobs[jobId];
    m_allocatedGpuSeconds += job.gpus * (until - running.startSeconds);
    m_pool.give(running.allocation);
    for (const auto &[server, gpus] : running.allocation) {
        std::vector<int> &jobs = m_jobsOnServer[server];
        jobs.erase(std::find(jobs.begin(), jobs.end(), jobId));
    }
    m_runningByEnd.erase({running.endSeconds, jobId, job.gpus});
    running.running = false;
    if (job.serviceIndex >= 0) {
        --m_serviceRunning[job.serviceIndex];
        return;
    }
    m_runningGpusByClass[job.classIndex] -= job.gpus;
    if (!m_heldByClass[job.classIndex].empty())
        releaseHeld(job.classIndex);
}

void Simulation::complete(const Event &event)
{
    addScatterLoss(m_jobs[event.index], m_now - m_running[event.index].startSeconds);
    stop(event.index, m_now);
    ++m_completed;
    m_freeIds.push_back(event.index);
}

/**
 * Stops a running job and puts it back in its place in the queue: a batch job loses the work
 * since its last checkpoint and pays a restart; a service replica just waits to be placed.
 */
void Simulation::interrupt(int jobId, double &lostGpuSeconds)
{
    Job &job = m_jobs[jobId];
    const double elapsed = m_now - m_running[jobId].startSeconds;
    const double kept = job.checkpointIntervalSeconds > 0
        ? std::floor(elapsed / job.checkpointIntervalSeconds) * job.checkpointIntervalSeconds
        : 0.0;
    stop(jobId, m_now);
    if (job.serviceIndex < 0) {
        // Checkpoints come every interval of wall time; a scattered job did less work in it.
        job.remainingSeconds += m_cluster.restartSeconds - kept / job.slowdown;
        lostGpuSeconds += job.gpus * (elapsed - kept + m_cluster.restartSeconds);
        addScatterLoss(job, kept);
    }
    m_queue.insert(queueEntry(jobId));
}

/**
 * Room for a service replica that does not fit: the running batch jobs of lowest priority (the
 * latest started first) are stopped and requeued until it fits, as Slurm's QoS preemption in
 * REQUEUE mode or Kubernetes' PriorityClass preemption do. Nothing is stopped when even all
 * batch jobs would not make room.
 */
std::optional<Allocation> Simulation::preemptFor(int replicaId)
{
    const int need = m_jobs[replicaId].gpus;
    long long batchGpus = 0;
    for (std::size_t id = 0; id < m_running.size(); ++id)
        if (m_running[id].running && m_jobs[id].serviceIndex < 0)
            batchGpus += m_jobs[id].gpus;
    if (m_pool.freeGpus() + batchGpus < need)
        return std::nullopt;
    for (;;) {
        int victim = -1;
        for (std::size_t id = 0; id < m_running.size(); ++id) {
            if (!m_running[id].running || m_jobs[id].serviceIndex >= 0)
                continue;
            const auto rank = [this](std::size_t job) {
                return std::pair(m_jobs[job].priority, -m_running[job].startSeconds);
            };
            if (victim < 0 || rank(id) < rank(static_cast<std::size_t>(victim)))
                victim = static_cast<int>(id);
        }
        if (victim < 0)
            return std::nullopt;
        interrupt(victim, m_preemptedGpuSeconds);
        ++m_preemptions;
        if (std::optional<Allocation> allocation = m_pool.place(need))
            return allocation;
    }
}

void Simulation::fail()
{
    const int server = std::uniform_int_distribution<int>(0, m_pool.servers() - 1)(m_random);
    // Every server fails at the same rate while up (a down one drawn here is thinned away).
    if (m_pool.isUp(server)) {
        const std::vector<int> stopped = m_jobsOnServer[server];
        for (int jobId : stopped) {
            ++(m_jobs[jobId].serviceIndex >= 0 ? m_replicaInterruptions : m_interruptions);
            interrupt(jobId, m_lostGpuSeconds);
        }
        m_pool.setUp(server, false);
        m_events.push({m_now + m_cluster.repairSeconds, EventKind::Repair, server});
    }
    m_events.push(
        {m_now
             + std::exponential_distribution<double>(static_cast<double>(m_pool.servers())
                                                     / m_cluster.serverMtbfSeconds)(m_random),
         EventKind::Failure, 0});
}

void Simulation::schedule()
{
    while (!m_queue.empty()) {
        const int head = m_queue.begin()->jobId;
        const bool preempting = m_options.servicesPreempt && m_jobs[head].serviceIndex >= 0;
        if (m_pool.freeGpus() == 0 && !preempting)
            return;
        if (overLimit(m_jobs[head])) {
            hold(head); // it waits aside and holds up nobody
            continue;
        }
        std::optional<Allocation> allocation
            = m_pool.place(m_jobs[head].gpus, m_jobs[head].partition);
        if (!allocation && preempting)
            allocation = preemptFor(head);
        if (!allocation) {
            if (m_options.policy == SchedulingPolicy::BestEffortFifo) {
                admitWhatFits(head);
                return;
            }
            if (!m_cluster.partitions.empty())
                startInOtherPartitions(head);
            if (m_options.policy != SchedulingPolicy::EasyBackfill)
                return;
            // The same sum the tick was scheduled at: now - last can round below the interval.
            if (m_now >= m_lastBackfill + m_options.backfillIntervalSeconds) {
                m_lastBackfill = m_now;
                backfill(head);
            } else if (!m_backfillTickPending) {
                m_backfillTickPending = true;
                m_events.push({m_lastBackfill + m_options.backfillIntervalSeconds,
                               EventKind::BackfillTick, 0});
            }
            return;
        }
        start(head, std::move(*allocation));
    }
}

/**
 * EASY: the head's reservation is the earliest end of running jobs by which enough GPUs are free
 * in its partition (counted as GPUs; where they lie is checked when it starts); a later job
 * starts now if it fits and ends by then, or needs no more than the GPUs the reservation leaves
 * over. A job confined to another partition than the head's cannot touch its reservation.
 */
void Simulation::backfill(int headId)
{
    const int headPartition = m_jobs[headId].partition;
    // The reservation is worked out only once a later job could start at all: most passes end
    // before (nothing else fits in the free GPUs).
    double shadow = 0;
    long long extra = 0;
    bool reserved = false;
    const auto gpusInHeadPartition = [&](int jobId) -> long long {
        if (headPartition < 0)
            return m_jobs[jobId].gpus;
        long long gpus = 0;
        for (const auto &[server, used] : m_running[jobId].allocation)
            if (m_pool.partitionOf(server) == headPartition)
                gpus += used;
        return gpus;
    };
    const auto reserve = [&] {
        const long long need = m_jobs[headId].gpus;
        long long available = m_pool.freeGpus(headPartition);
        shadow = std::numeric_limits<double>::infinity();
        for (const auto &[end, jobId, gpus] : m_runningByEnd) {
            available += headPartition < 0 ? gpus : gpusInHeadPartition(jobId);
            if (available >= need) {
                shadow = end;
                break;
            }
        }
        extra = std::isfinite(shadow) ? available - need : 0;
        reserved = true;
    };
    const auto tryStart = [&](int jobId) {
        const Job &job = m_jobs[jobId];
        if (job.gpus > m_pool.freeGpus(job.partition))
            return;
        const bool elsewhere
            = headPartition >= 0 && job.partition >= 0 && job.partition != headPartition;
        if (!reserved && !elsewhere)
            reserve();
        // The runtime on the placement it gets is known only once placed; the bare runtime is
        // the least it can be.
        if (!elsewhere && m_now + job.remainingSeconds > shadow && job.gpus > extra)
            return;
        if (overLimit(job)) {
            hold(jobId);
            return;
        }
        std::optional<Allocation> allocation = m_pool.place(job.gpus, job.partition);
        if (!allocation)
            return;
        const bool endsInTime
            = m_now + job.remainingSeconds * slowdownOn(job, *allocation) <= shadow;
        if (!elsewhere && !endsInTime) {
            if (job.gpus > extra)
                return;
            extra -= job.gpus;
        }
        start(jobId, std::move(*allocation));
    };
    int looked = 0;
    for (auto it = std::next(m_queue.begin());
         it != m_queue.end() && looked < m_options.backfillDepth && m_pool.freeGpus() > 0;) {
        const QueueEntry entry = *it;
        ++it; // start() and hold() erase the entry
        ++looked;
        // tryStart's first two refusals, read off the queue entry (no partition: the same test).
        if (entry.gpus > m_pool.freeGpus())
            continue;
        if (reserved && headPartition < 0 && m_now + entry.remainingSeconds > shadow
            && entry.gpus > extra)
            continue;
        tryStart(entry.jobId);
    }
}

/**
 * Slurm's main pass over several partitions: a job that cannot start holds up the later jobs of
 * its own partition only (jobs of no partition are one more partition, the one of every server).
 */
void Simulation::startInOtherPartitions(int headId)
{
    std::vector<int> blocked {m_jobs[headId].partition};
    int looked = 0;
    for (auto it = std::next(m_queue.begin());
         it != m_queue.end() && looked < m_options.backfillDepth && m_pool.freeGpus() > 0;) {
        const int jobId = it->jobId;
        ++it; // start() and hold() erase the entry
        ++looked;
        const int partition = m_jobs[jobId].partition;
        if (std::find(blocked.begin(), blocked.end(), partition) != blocked.end())
            continue;
        if (!startIfItFits(jobId))
            blocked.push_back(partition);
    }
}

/** Starts a queued job now where it fits, or sets it aside at its class's limit; false when
 * it is left waiting for servers. */
bool Simulation::startIfItFits(int jobId)
{
    const Job &job = m_jobs[jobId];
    if (overLimit(job)) {
        hold(jobId);
        return true;
    }
    std::optional<Allocation> allocation = m_pool.place(job.gpus, job.partition);
    if (!allocation)
        return false;
    start(jobId, std::move(*allocation));
    return true;
}

/** BestEffortFIFO: every later job that fits now starts, in queue order; no reservation. */
void Simulation::admitWhatFits(int headId)
{
    int looked = 0;
    for (auto it = m_queue.begin();
         it != m_queue.end() && looked < m_options.backfillDepth && m_pool.freeGpus() > 0;) {
        const int jobId = it->jobId;
        ++it; // start() erases the entry
        if (jobId == headId)
            continue;
        ++looked;
        const Job &job = m_jobs[jobId];
        if (job.gpus <= m_pool.freeGpus(job.partition))
            startIfItFits(jobId);
    }
}

SimulationResult Simulation::run(const std::function<void(double)> &progress,
                                 const std::atomic<bool> *cancel)
{
    seedEvents();
    const double horizon = m_options.horizonSeconds;
    double reported = 0;
    for (;;) {
        const Event event = nextEvent();
        if (!(event.time <= horizon))
            break;
        advanceTo(event.time);
        ++m_eventCount;
        switch (event.kind) {
        case EventKind::Arrival:
            arrive(event);
            break;
        case EventKind::Completion:
            complete(event);
            break;
        case EventKind::Failure:
            fail();
            break;
        case EventKind::Repair:
            m_pool.setUp(event.index, true);
            break;
        case EventKind::BackfillTick:
            m_backfillTickPending = false;
            break;
        case EventKind::ServiceScale:
            scaleServices(event.index);
            break;
        }
        schedule();
        if ((m_eventCount & 0xfff) == 0) {
            if (cancel && cancel->load())
                break;
            if (progress && m_now / horizon - reported >= 0.01) {
                reported = m_now / horizon;
                progress(reported);
            }
        }
    }
    advanceTo(std::max(m_now, horizon));
    for (std::size_t jobId = 0; jobId < m_running.size(); ++jobId)
        if (m_running[jobId].running) {
            m_allocatedGpuSeconds += m_jobs[jobId].gpus * (m_now - m_running[jobId].startSeconds);
            addScatterLoss(m_jobs[jobId], m_now - m_running[jobId].startSeconds);
        }
    return results();
}

std::vector<std::vector<double>> Simulation::waitsOfJobsNeverStarted() const
{
    std::vector<std::vector<double>> waits(m_waits.size());
    const auto add = [&](const QueueEntry &entry) {
        const Job &job = m_jobs[entry.jobId];
        // Requeued jobs (after a failure or a preemption) have had their wait counted; service
        // replicas and the warm-up's jobs are not counted.
        if (job.serviceIndex < 0 && job.firstStartSeconds < 0
            && job.submitSeconds >= m_options.warmupSeconds)
            waits[job.classIndex].push_back(m_now - job.submitSeconds);
    };
    for (const QueueEntry &entry : m_queue)
        add(entry);
    for (const auto &held : m_heldByClass)
        for (const QueueEntry &entry : held)
            add(entry);
    return waits;
}

SimulationResult Simulation::results() const
{
    SimulationResult r;
    const double capacity = static_cast<double>(m_pool.totalGpus()) * m_now;
    if (capacity > 0) {
        r.utilisation = m_allocatedGpuSeconds / capacity;
        r.usefulUtilisation = std::max(0.0,
                                       m_allocatedGpuSeconds - m_lostGpuSeconds
                                           - m_preemptedGpuSeconds - m_scatterGpuSeconds)
            / capacity;
        r.fragmentation = m_fragmentedGpuSeconds / capacity;
        double serviceGpuSeconds = 0;
        for (std::size_t s = 0; s < m_services.size(); ++s)
            serviceGpuSeconds += m_serviceDemandedSeconds[s] * m_services[s].gpusPerReplica;
        // The classes' long-run load, rate x GPUs x mean runtime: over a short horizon the
        // few jobs that arrive would count their whole runtimes against hours of capacity
        // (146% of a cluster that never queued a job). A trace has only its sample.
        double classGpuSeconds = m_offeredGpuSeconds;
        if (!m_classes.empty()) {
            classGpuSeconds = 0;
            for (const JobClass &job : m_classes)
                classGpuSeconds
                    += job.arrivalsPerSecond * job.gpus * job.meanRuntimeSeconds * m_now;
        }
        r.offeredLoad = (classGpuSeconds + serviceGpuSeconds) / capacity;
        r.arrivedLoad = (m_offeredGpuSeconds + serviceGpuSeconds) / capacity;
    }
    r.gpuHoursLostToFailures = m_lostGpuSeconds / 3600.0;
    r.gpuHoursLostToPreemption = m_preemptedGpuSeconds / 3600.0;
    r.gpuHoursLostToScatter = m_scatterGpuSeconds / 3600.0;
    r.interruptions = m_interruptions;
    r.replicaInterruptions = m_replicaInterruptions;
    r.preemptions = m_preemptions;
    r.jobsSubmitted = m_submitted;
    r.jobsCompleted = m_completed;
    // Batch jobs only: service replicas waiting for room are not jobs a user submitted.
    const auto isBatch = [&](const QueueEntry &entry) {
        return m_jobs[entry.jobId].serviceIndex < 0;
    };
    r.jobsQueuedAtEnd = std::count_if(m_queue.begin(), m_queue.end(), isBatch);
    for (const auto &held : m_heldByClass)
        r.jobsQueuedAtEnd += std::count_if(held.begin(), held.end(), isBatch);
    for (std::size_t jobId = 0; jobId < m_running.size(); ++jobId)
        if (m_running[jobId].running && m_jobs[jobId].serviceIndex < 0)
            ++r.jobsRunningAtEnd;
    r.events = m_eventCount;
    const std::vector<std::vector<double>> stillWaiting = waitsOfJobsNeverStarted();
    // Without classes the one slot is the trace's; without a trace either (services alone)
    // there is no class to report.
    const std::size_t classCount = m_classes.empty() && m_trace.empty() ? 0 : m_waits.size();
    for (std::size_t c = 0; c < classCount; ++c) {
        ClassResult cr;
        cr.name = c < m_classes.size() ? m_classes[c].name : "trace";
        cr.started = static_cast<long long>(m_waits[c].size());
        cr.waitingAtEnd = static_cast<long long>(stillWaiting[c].size());
        std::vector<double> waits = m_waits[c];
        waits.insert(waits.end(), stillWaiting[c].begin(), stillWaiting[c].end());
        double sum = 0;
        for (double w : waits)
            sum += w;
        cr.meanWaitSeconds = waits.empty() ? 0 : sum / static_cast<double>(waits.size());
        cr.waitP50Seconds = quantile(waits, 0.50);
        cr.waitP95Seconds = quantile(waits, 0.95);
        cr.waitP99Seconds = quantile(waits, 0.99);
        cr.scatteredStarts = m_scatteredByClass[c];
        cr.heldByLimit = m_heldCountByClass[c];
        r.classes.push_back(cr);
    }
    for (std::size_t c = 0; c < r.classes.size(); ++c)
        r.classes[c].submitted = m_submittedByClass[c];
    double served = 0, demanded = 0;
    for (std::size_t s = 0; s < m_services.size(); ++s) {
        r.services.push_back({m_services[s].name, m_serviceDemandedSeconds[s] / 3600.0,
                              m_serviceServedSeconds[s] / 3600.0});
        served += m_serviceServedSeconds[s];
        demanded += m_serviceDemandedSeconds[s];
    }
    r.serviceAttainment = demanded > 0 ? served / demanded : 1.0;
    r.jobs = m_recorded;
    std::stable_sort(r.jobs.begin(), r.jobs.end(), [](const RecordedJob &a, const RecordedJob &b) {
        return a.submitSeconds < b.submitSeconds;
    });
    const double gpuDay = static_cast<double>(m_pool.totalGpus()) * 86400.0;
    for (std::size_t day = 0; day < m_busyGpuSecondsByDay.size(); ++day) {
        // The last day may be cut short by the horizon.
        const double length = std::min(86400.0, m_now - static_cast<double>(day) * 86400.0);
        r.dailyUtilisation.push_back(
            length > 0 ? m_busyGpuSecondsByDay[day] / (gpuDay * length / 86400.0) : 0.0);
    }
    return r;
}

} // namespace

SimulationResult simulateWorkload(const SchedulerCluster &cluster,
                                  const SchedulerWorkload &workload,
                                  const SimulationOptions &options,
                                  const std::function<void(double)> &progress,
                                  const std::atomic<bool> *cancel)
{
    Simulation simulation(cluster, workload, options);
    return simulation.run(progress, cancel);
}

SimulationResult
simulateScheduler(const SchedulerCluster &cluster, const std::vector<JobClass> &classes,
                  const std::vector<TraceJob> &trace, const SimulationOptions &options,
                  const std::function<void(double)> &progress, const std::atomic<bool> *cancel)
{
    return simulateWorkload(cluster, {classes, {}, trace}, options, progress, cancel);
}

double erlangCMeanWaitSeconds(int servers, double arrivalsPerSecond, double serviceSeconds)
{
    const double offered = arrivalsPerSecond * serviceSeconds; // a = lambda / mu
    if (servers < 1 || offered >= servers)
        return std::numeric_limits<double>::infinity();
    // Erlang B by its recurrence, then C = B / (1 - rho (1 - B)).
    double erlangB = 1.0;
    for (int k = 1; k <= servers; ++k)
        erlangB = offered * erlangB / (k + offered * erlangB);
    const double rho = offered / servers;
    const double erlangC = erlangB / (1.0 - rho * (1.0 - erlangB));
    return erlangC * serviceSeconds / (servers - offered);
}

} // namespace cp::model
