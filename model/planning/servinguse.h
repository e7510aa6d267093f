// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/inference/inferenceestimate.h"

#include <string>

namespace cp::model {

/**
 * The plan's GPUs against those its serving load keeps busy. A fleet sized for a rate (or a fixed
 * fleet of fewer replicas than the servers hold) leaves the rest idle, yet the plan buys and
 * powers them all: the cost per million tokens of the replicas that serve answers "which GPU",
 * the cost over every GPU of the plan answers "what does this plan, as built, cost per token".
 */
struct ServingUse
{
    long long planGpus = 0;
    long long servingGpus = 0; ///< replicas x GPUs per replica
    /** The serving estimate's cost per million output tokens: the replicas that serve. */
    double costPerMillionOutputTokensServingUsd = 0;
    /** Every GPU of the plan at the serving cost per GPU-hour (capital share and energy at
     * load), over the output tokens the load brings: the serving figure x plan GPUs / serving
     * GPUs. A plan short of GPUs cannot serve the load; its figure is the serving one. */
    double costPerMillionOutputTokensAllGpusUsd = 0;
    long long idleGpus() const { return planGpus > servingGpus ? planGpus - servingGpus : 0; }
    /** A fifth or more of the plan's GPUs idle: worth a warning, not a rounding remainder. */
    bool largelyIdle() const { return 5 * idleGpus() >= planGpus && idleGpus() > 0; }
};

/** `inference` (fitting and meeting its targets) on a plan of `planGpus` GPUs. */
ServingUse servingUse(const InferenceEstimate &inference, long long planGpus);

/** "the load keeps 6 of the plan's 64 L40S GPUs busy; 58 stay idle: 0.032 USD per million
 * output tokens on the replicas that serve, 0.342 USD over every GPU the plan buys". */
std::string servingUseText(const ServingUse &use);

} // namespace cp::model
