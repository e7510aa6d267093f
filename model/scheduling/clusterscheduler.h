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

    std::optional<Allocation> place(int gpus) const;
    void take(const Allocation &allocation);
    void give(const Allocation &allocation);
    /** A server goes down (its jobs must be stopped first) or comes back. */
    void setUp(int server, bool up);

    int servers() const { return static_cast<int>(m_gpus.size()); }
    bool isUp(int server) const { return m_up[server]; }
    long long freeGpus() const { return m_freeTotal; }
    long long upGpus() const { return m_upTotal; }
    long long totalGpus() const { return m_total; }
    /** Whole servers a job of `gpus` takes, or 0 when it fits on one server. */
    int wholeServersFor(int gpus) const;
    /** Up servers with every GPU free. */
    int wholeFreeServers() const { return m_wholeFreeCount; }
    int largestServerGpus() const { return m_maxGpusPerServer; }

private:
    void setFree(int server, int free);
    void addPartly(int server, int free);
    void removePartly(int server, int free);
    int leafOf(int server) const { return server / m_serversPerLeaf; }

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

} // namespace cp::model
