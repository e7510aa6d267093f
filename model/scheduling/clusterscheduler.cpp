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

int ServerPool::wholeServersFor(int gpus) const
{
    if (gpus <= m_maxGpusPerServer)
        return 0;
    return (gpus + m_maxGpusPerServer - 1) / m_maxGpusPerServer;
}

std::optional<Allocation> ServerPool::place(int gpus) const
{
    const int whole = wholeServersFor(gpus);
    if (whole == 0) {
        if (m_spread) {
            // The emptiest server: a whole free one, else the partly used one with most free.
            for (const std::set<int> &leaf : m_wholeFreeByLeaf)
                for (int server : leaf)
                    if (m_gpus[server] >= gpus)
                        return Allocation {{server, gpus}};
            for (int free = static_cast<int>(m_partlyFree.size()) - 1; free >= gpus; --free)
                if (!m_partlyFree[static_cast<std::size_t>(free)].empty())
                    return Allocation {{m_partlyFree[static_cast<std::size_t>(free)].back(), gpus}};
            return std::nullopt;
        }
        // Best fit among partly used servers, else a whole free one.
        for (int free = gpus; free < static_cast<int>(m_partlyFree.size()); ++free)
            if (!m_partlyFree[static_cast<std::size_t>(free)].empty())
                return Allocation {{m_partlyFree[static_cast<std::size_t>(free)].back(), gpus}};
        for (const std::set<int> &leaf : m_wholeFreeByLeaf)
            for (int server : leaf)
                if (m_gpus[server] >= gpus)
                    return Allocation {{server, gpus}};
        return std::nullopt;
    }
    if (whole > m_wholeFreeCount)
        return std::nullopt;
    std::vector<int> leaves(m_wholeFreeByLeaf.size());
    for (std::size_t i = 0; i < leaves.size(); ++i)
        leaves[i] = static_cast<int>(i);
    if (m_topologyAware) {
        // One leaf that holds the job with the least to spare, else the fullest leaves first.
        int bestLeaf = -1;
        for (int leaf : leaves) {
            const int free = static_cast<int>(m_wholeFreeByLeaf[leaf].size());
            if (free >= whole
                && (bestLeaf < 0 || free < static_cast<int>(m_wholeFreeByLeaf[bestLeaf].size())))
                bestLeaf = leaf;
        }
        if (bestLeaf >= 0)
            leaves = {bestLeaf};
        else
            std::stable_sort(leaves.begin(), leaves.end(), [this](int a, int b) {
                return m_wholeFreeByLeaf[a].size() > m_wholeFreeByLeaf[b].size();
            });
    }
    Allocation allocation;
    for (int leaf : leaves)
        for (int server : m_wholeFreeByLeaf[leaf]) {
            if (static_cast<int>(allocation.size()) == whole)
                return allocation;
            allocation.push_back({server, m_gpus[server]});
        }
    if (static_cast<int>(allocation.size()) == whole)
        return allocation;
    return std::nullopt;
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

} // namespace cp::model
