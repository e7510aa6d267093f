// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/scheduling/clusterscheduler.h"

#include <algorithm>

namespace cp::model {

ServerPool::ServerPool(const SchedulerCluster &cluster, bool topologyAware, bool spread)
    : m_gpus(cluster.gpusPerServer)
    , m_free(cluster.gpusPerServer)
    , m_up(cluster.gpusPerServer.size(), true)
    , m_serversPerLeaf(std::max(1, cluster.serversPerLeaf))
    , m_topologyAware(topologyAware)
    , m_spread(spread)
{
    m_wholeFreeByLeaf.resize((m_gpus.size() + m_serversPerLeaf - 1) / m_serversPerLeaf);
    m_partitionOf.assign(m_gpus.size(), -1);
    for (const ServerPartition &partition : cluster.partitions) {
        const int index = static_cast<int>(m_partitions.size());
        ServerPartition clamped = partition;
        clamped.firstServer = std::clamp(partition.firstServer, 0, servers());
        clamped.endServer = std::clamp(partition.endServer, clamped.firstServer, servers());
        m_partitions.push_back(clamped);
        m_freeByPartition.push_back(0);
        m_totalByPartition.push_back(0);
        m_maxGpusByPartition.push_back(0);
        for (int server = clamped.firstServer; server < clamped.endServer; ++server) {
            m_partitionOf[server] = index;
            m_totalByPartition.back() += m_gpus[server];
            m_freeByPartition.back() += m_gpus[server];
            m_maxGpusByPartition.back() = std::max(m_maxGpusByPartition.back(), m_gpus[server]);
        }
    }
    for (int server = 0; server < servers(); ++server) {
        m_maxGpusPerServer = std::max(m_maxGpusPerServer, m_gpus[server]);
        m_total += m_gpus[server];
        m_wholeFreeByLeaf[leafOf(server)].insert(server);
        ++m_wholeFreeCount;
    }
    m_freeTotal = m_total;
    m_upTotal = m_total;
    m_partlyFree.resize(static_cast<std::size_t>(m_maxGpusPerServer) + 1);
    m_slot.assign(m_gpus.size(), -1);
}

void ServerPool::addPartly(int server, int free)
{
    std::vector<int> &bucket = m_partlyFree[static_cast<std::size_t>(free)];
    m_slot[server] = static_cast<int>(bucket.size());
    bucket.push_back(server);
}

void ServerPool::removePartly(int server, int free)
{
    std::vector<int> &bucket = m_partlyFree[static_cast<std::size_t>(free)];
    const int slot = m_slot[server];
    bucket[static_cast<std::size_t>(slot)] = bucket.back();
    m_slot[bucket.back()] = slot;
    bucket.pop_back();
    m_slot[server] = -1;
}

int ServerPool::wholeServersFor(int gpus, int partition) const
{
    const int largest = partition < 0 ? m_maxGpusPerServer : m_maxGpusByPartition[partition];
    if (largest <= 0)
        return 1; // an empty partition: no server holds it
    if (gpus <= largest)
        return 0;
    return (gpus + largest - 1) / largest;
}

std::pair<int, int> ServerPool::rangeOf(int partition) const
{
    if (partition < 0)
        return {0, servers()};
    return {m_partitions[partition].firstServer, m_partitions[partition].endServer};
}

int ServerPool::wholeFreeIn(int leaf, int first, int end) const
{
    const std::set<int> &free = m_wholeFreeByLeaf[leaf];
    const int leafFirst = leaf * m_serversPerLeaf;
    if (first <= leafFirst && leafFirst + m_serversPerLeaf <= end)
        return static_cast<int>(free.size());
    return static_cast<int>(std::distance(free.lower_bound(first), free.lower_bound(end)));
}

std::optional<Allocation> ServerPool::placeOnOneServer(int gpus, int first, int end) const
{
    const bool everywhere = first == 0 && end == servers();
    // The last server of a bucket that lies in [first, end): with no partition, the last.
    const auto inBucket = [&](int free) -> std::optional<int> {
        const std::vector<int> &bucket = m_partlyFree[static_cast<std::size_t>(free)];
        for (auto it = bucket.rbegin(); it != bucket.rend(); ++it)
            if (everywhere || (*it >= first && *it < end))
                return *it;
        return std::nullopt;
    };
    const auto wholeFree = [&]() -> std::optional<int> {
        // A busy cluster often has no whole free server at all: no need to look in each leaf.
        if (first >= end || m_wholeFreeCount == 0)
            return std::nullopt;
        for (int leaf = leafOf(first); leaf <= leafOf(end - 1); ++leaf) {
            const std::set<int> &free = m_wholeFreeByLeaf[leaf];
            for (auto it = everywhere ? free.begin() : free.lower_bound(first);
                 it != free.end() && *it < end; ++it)
                if (m_gpus[*it] >= gpus)
                    return *it;
        }
        return std::nullopt;
    };
    if (m_spread) {
        // The emptiest server: a whole free one, else the partly used one with most free.
        if (const std::optional<int> server = wholeFree())
            return Allocation {{*server, gpus}};
        for (int free = static_cast<int>(m_partlyFree.size()) - 1; free >= gpus; --free)
            if (const std::optional<int> server = inBucket(free))
                return Allocation {{*server, gpus}};
        return std::nullopt;
    }
    // Best fit among partly used servers, else a whole free one.
    for (int free = gpus; free < static_cast<int>(m_partlyFree.size()); ++free)
        if (const std::optional<int> server = inBucket(free))
            return Allocation {{*server, gpus}};
    if (const std::optional<int> server = wholeFree())
        return Allocation {{*server, gpus}};
    return std::nullopt;
}

std::optional<Allocation> ServerPool::placeOnWholeServers(int whole, int first, int end) const
{
    if (first >= end || whole > m_wholeFreeCount)
        return std::nullopt;
    std::vector<int> leaves;
    std::vector<int> freeInLeaf(m_wholeFreeByLeaf.size(), 0);
    for (int leaf = leafOf(first); leaf <= leafOf(end - 1); ++leaf) {
        leaves.push_back(leaf);
        freeInLeaf[leaf] = wholeFreeIn(leaf, first, end);
    }
    if (m_topologyAware) {
        // One leaf that holds the job with the least to spare, else the fullest leaves first.
        int bestLeaf = -1;
        for (int leaf : leaves)
            if (freeInLeaf[leaf] >= whole
                && (bestLeaf < 0 || freeInLeaf[leaf] < freeInLeaf[bestLeaf]))
                bestLeaf = leaf;
        if (bestLeaf >= 0)
            leaves = {bestLeaf};
        else
            std::stable_sort(leaves.begin(), leaves.end(),
                             [&](int a, int b) { return freeInLeaf[a] > freeInLeaf[b]; });
    }
    Allocation allocation;
    for (int leaf : leaves)
        for (auto it = m_wholeFreeByLeaf[leaf].lower_bound(first);
             it != m_wholeFreeByLeaf[leaf].end() && *it < end; ++it) {
            if (static_cast<int>(allocation.size()) == whole)
                return allocation;
            allocation.push_back({*it, m_gpus[*it]});
        }
    if (static_cast<int>(allocation.size()) == whole)
        return allocation;
    return std::nullopt;
}

std::optional<Allocation> ServerPool::place(int gpus, int partition) const
{
    const auto [first, end] = rangeOf(partition);
    const int whole = wholeServersFor(gpus, partition);
    if (whole == 0)
        return placeOnOneServer(gpus, first, end);
    return placeOnWholeServers(whole, first, end);
}

void ServerPool::setFree(int server, int free)
{
    const int before = m_free[server];
    if (m_up[server]) {
        if (before == m_gpus[server]) {
            m_wholeFreeByLeaf[leafOf(server)].erase(server);
            --m_wholeFreeCount;
        } else if (before > 0) {
            removePartly(server, before);
        }
        if (free == m_gpus[server]) {
            m_wholeFreeByLeaf[leafOf(server)].insert(server);
            ++m_wholeFreeCount;
        } else if (free > 0) {
            addPartly(server, free);
        }
        m_freeTotal += free - before;
        if (m_partitionOf[server] >= 0)
            m_freeByPartition[m_partitionOf[server]] += free - before;
    }
    m_free[server] = free;
}

void ServerPool::take(const Allocation &allocation)
{
    for (const auto &[server, gpus] : allocation)
        setFree(server, m_free[server] - gpus);
}

void ServerPool::give(const Allocation &allocation)
{
    for (const auto &[server, gpus] : allocation)
        setFree(server, m_free[server] + gpus);
}

void ServerPool::setUp(int server, bool up)
{
    if (m_up[server] == up)
        return;
    if (!up) {
        // Out of the free lists first, while it still counts as up.
        const int free = m_free[server];
        setFree(server, 0);
        m_free[server] = free;
        m_up[server] = false;
        m_upTotal -= m_gpus[server];
        return;
    }
    m_up[server] = true;
    m_upTotal += m_gpus[server];
    const int free = m_free[server];
    m_free[server] = 0;
    setFree(server, free);
}

double scatteredSlowdown(double networkShare, double leafDownUpRatio, int leaves, int fewestLeaves)
{
    const double share = std::clamp(networkShare, 0.0, 1.0);
    const auto communicationFactor = [&](int spanned) {
        const double offLeaf = 1.0 - 1.0 / std::max(1, spanned);
        return std::max(1.0, leafDownUpRatio * offLeaf);
    };
    const double compact = (1 - share) + share * communicationFactor(fewestLeaves);
    const double placed = (1 - share) + share * communicationFactor(leaves);
    return std::max(1.0, placed / compact);
}

} // namespace cp::model
