// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/scheduling/schedulingtypes.h"

#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace cp::model {

/** Where a job runs: (server, GPUs on it) pairs. */
using Allocation = std::vector<std::pair<int, int>>;

/**
 * The servers' free GPUs and where a job fits. A job of at most one server's GPUs goes to the
 * up server with the fewest free GPUs that still hold it (best fit: it keeps whole servers free
 * for big jobs); a bigger job takes whole free servers, under as few leaf switches as possible
 * when topology-aware (the leaf that holds it with the fewest to spare, else the leaves with the
 * most free servers first), else the first free servers by index.
 */
class ServerPool
{
public:
    ServerPool(const SchedulerCluster &cluster, bool topologyAware, bool spread = false);

    /** Where a job of `gpus` fits now, within `partition` (an index into the cluster's
     * partitions; -1: any server). */
    std::optional<Allocation> place(int gpus, int partition = -1) const;
    void take(const Allocation &allocation);
    void give(const Allocation &allocation);
    /** A server goes down (its jobs must be stopped first) or comes back. */
    void setUp(int server, bool up);

    int servers() const { return static_cast<int>(m_gpus.size()); }
    bool isUp(int server) const { return m_up[server]; }
    long long freeGpus() const { return m_freeTotal; }
    /** Free GPUs on up servers of `partition` (-1: all). */
    long long freeGpus(int partition) const
    {
        return partition < 0 ? m_freeTotal : m_freeByPartition[partition];
    }
    /** The partition `server` belongs to; -1: none. */
    int partitionOf(int server) const { return m_partitionOf[server]; }
    int leafOf(int server) const { return server / m_serversPerLeaf; }
    int serversPerLeaf() const { return m_serversPerLeaf; }
    long long upGpus() const { return m_upTotal; }
    long long totalGpus() const { return m_total; }
    /** GPUs of `partition`'s servers, up or down (-1: all). */
    long long totalGpus(int partition) const
    {
        return partition < 0 ? m_total : m_totalByPartition[partition];
    }
    /** Whole servers a job of `gpus` takes in `partition`, or 0 when it fits on one server. */
    int wholeServersFor(int gpus, int partition = -1) const;
    /** Up servers with every GPU free. */
    int wholeFreeServers() const { return m_wholeFreeCount; }
    int largestServerGpus() const { return m_maxGpusPerServer; }

private:
    void setFree(int server, int free);
    void addPartly(int server, int free);
    void removePartly(int server, int free);
    /** Servers [first, end) a placement in `partition` may use. */
    std::pair<int, int> rangeOf(int partition) const;
    /** Whole free servers of `leaf` within [first, end). */
    int wholeFreeIn(int leaf, int first, int end) const;
    std::optional<Allocation> placeOnOneServer(int gpus, int first, int end) const;
    std::optional<Allocation> placeOnWholeServers(int whole, int first, int end) const;

    std::vector<ServerPartition> m_partitions;
    std::vector<int> m_partitionOf;
    std::vector<long long> m_freeByPartition;
    std::vector<long long> m_totalByPartition;
    std::vector<int> m_maxGpusByPartition;
    std::vector<int> m_gpus;
    std::vector<int> m_free;
    std::vector<bool> m_up;
    int m_serversPerLeaf;
    bool m_topologyAware;
    bool m_spread;
    int m_maxGpusPerServer = 0;
    long long m_freeTotal = 0;
    long long m_upTotal = 0;
    long long m_total = 0;
    int m_wholeFreeCount = 0;
    /** Up servers partly in use, by their free GPUs (best fit scans upwards from the job's
     * size); m_slot is each one's place in its bucket, for removal in constant time. */
    std::vector<std::vector<int>> m_partlyFree;
    std::vector<int> m_slot;
    /** Up servers with every GPU free, per leaf. */
    std::vector<std::set<int>> m_wholeFreeByLeaf;
};

/**
 * How much longer a job runs when placed under `leaves` leaf switches instead of the fewest it
 * needs (`fewestLeaves`), `networkShare` of its compact runtime being scale-out communication,
 * on leaves of down:up bandwidth `leafDownUpRatio` (docs/scheduling-model.md). On a busy cluster
 * every leaf's uplinks carry other jobs' traffic too, so a server's traffic that leaves its leaf
 * gets 1/ratio of its NIC rate. A job spread evenly over k leaves sends 1 - 1/k of an even
 * (all-to-all) traffic pattern off its leaf, so its communication takes
 * max(1, ratio x (1 - 1/k)) times its NIC-bound time; the slowdown is the runtime with that
 * factor over the runtime with the factor of the fewest leaves.
 */
double scatteredSlowdown(double networkShare, double leafDownUpRatio, int leaves, int fewestLeaves);

} // namespace cp::model
