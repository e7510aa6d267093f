// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/inference/offlinejob.h"

#include <algorithm>

namespace cp::model {

OfflineJobWaves offlineJobWaves(long long requests, long long replicas, long long batch)
{
    requests = std::max(1LL, requests);
    replicas = std::max(1LL, replicas);
    batch = std::max(1LL, batch);
    OfflineJobWaves waves;
    // ceil(requests / replicas) without the overflow of requests + replicas - 1.
    waves.requestsPerReplica = requests / replicas + (requests % replicas != 0 ? 1 : 0);
    waves.fullWaves = waves.requestsPerReplica / batch;
    waves.lastWaveBatch = waves.requestsPerReplica % batch;
    return waves;
}

} // namespace cp::model
