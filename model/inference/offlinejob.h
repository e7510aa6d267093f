// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace cp::model {

/**
 * How an offline job's requests fall into waves on its busiest replica. The replicas share the
 * requests evenly; a replica runs `batch` of them at once, and requests of one length finish
 * together, so its share runs in full waves and one smaller last wave of the remainder.
 */
struct OfflineJobWaves
{
    long long requestsPerReplica = 0; ///< the busiest replica's share
    long long fullWaves = 0; ///< waves of the whole batch
    long long lastWaveBatch = 0; ///< the remainder's wave; 0 when the share divides evenly
};

/** Waves of `requests` over `replicas` replicas of `batch` sequences each; all three at least 1. */
OfflineJobWaves offlineJobWaves(long long requests, long long replicas, long long batch);

} // namespace cp::model
