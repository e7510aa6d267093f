// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/plan/plansources.h"

#include "model/catalog/catalog.h"
#include "model/plan/plan.h"

#include <algorithm>
#include <set>

namespace cp::model {

std::vector<CatalogSourceLine> catalogSourcesForPlans(const std::vector<Plan> &plans,
                                                      const Catalog &catalog,
                                                      const std::vector<std::string> &pricedIds)
{
    std::set<std::string> ids(pricedIds.begin(), pricedIds.end());
    for (const Plan &plan : plans) {
        for (const NodeGroup &group : plan.nodeGroups) {
            ids.insert(group.nodeId);
            ids.insert(group.rackId);
            if (catalog.kindOf(group.nodeId) == CatalogKind::Node) {
                ids.insert(catalog.node(group.nodeId).gpuId);
                ids.insert(catalog.node(group.nodeId).nicId);
            }
        }
        ids.insert(plan.fabric.nicId);
        ids.insert(plan.fabric.switchId);
        for (const StoragePlan &storage : plan.storage)
            ids.insert(storage.storageId);
        ids.insert(plan.facility.facilityId);
        ids.insert(plan.trainingModelId);
        ids.insert(plan.inference.modelId);
        // A shared cluster's job classes whose runtimes the training estimator gives.
        for (const JobClass &jobClass : plan.portfolio.classes)
            ids.insert(jobClass.modelId);
    }
    std::vector<CatalogSourceLine> lines;
    for (CatalogKind kind : allCatalogKinds()) {
        for (const std::string &id : ids) {
            if (id.empty() || catalog.kindOf(id) != kind)
                continue;
            const nlohmann::json &entry = catalog.entryJson(id);
            lines.push_back({catalogKindKey(kind), id, entry.value("name", id),
                             entry.value("source", std::string())});
        }
    }
    return lines;
}

std::vector<std::string> estimateAssumptions(WorkloadType workload)
{
    enum class For { Every, Training, Inference };
    struct Assumption
    {
        For workload;
        const char *text;
    };
    static const Assumption assumptions[] = {
        {For::Training,
         "Training FLOPs: three passes of the layers' GEMMs, attention and logits as in Narayanan "
         "et al., SC21 (72·B·s·l·h²(1 + s/6h + V/12lh) for GPT), used for MFU."},
        {For::Training,
         "Training step: a list of named operations per layer (GEMMs at the catalog's "
         "size-dependent GEMM efficiency from published cuBLAS sweeps, fused attention, "
         "memory-bound kernels over achievable HBM bandwidth, a fixed cost per kernel, TP, CP, EP, "
         "pipeline and data-parallel collectives with the overlap of the named training software, "
         "Megatron-Core 2024 by default; windowed and chunked layers attend only their window or "
         "chunk, latent attention projects through its latents; selective recomputation "
         "repeats the modules the run names, multi-token prediction blocks run on the last "
         "stage, a DeepEP dispatcher sends a token once per GPU and node); "
         "docs/training-model.md, "
         "validated against the published runs in docs/validation-training.md."},
        {For::Training,
         "Training days and GPU-hours: the step time x steps without failures, and the expected "
         "wall time with failures, restarts and checkpoints (goodput below)."},
        {For::Training,
         "Memory: ZeRO model states of 2+2+12 bytes per parameter sharded by stage (Rajbhandari "
         "et al., SC20); activations after Korthikanti et al. 2022, generalised to GQA and MoE."},
        {For::Training,
         "Pipeline: 1F1B or interleaved, a step of (m + (p-1)/v) stage times (Narayanan et al., "
         "SC21)."},
        {For::Training,
         "Collectives: ring and hierarchical all-reduce at NCCL bus bandwidth from the catalog "
         "(nccl-tests PERFORMANCE.md); the scale-out rate is measured on the generated fabric "
         "graph (docs/fabric-model.md)."},
        {For::Every,
         "Fabric switch counts: folded Clos (Al-Fares et al., SIGCOMM 2008) and the NVIDIA DGX "
         "SuperPOD reference architecture for rail-optimised designs."},
        {For::Every,
         "Power: at full load every part at its rating (GPUs at TDP, servers, switches and optics "
         "at datasheet power), which sizes circuits, cabinets and the facility, and prices a "
         "serving fleet's GPU-hour; facility power = IT x PUE (The Green Grid, 2012)."},
        {For::Training,
         "A training run's energy: GPUs between idle and TDP by the share of the step they "
         "compute; a server's host at what its measured peak leaves it where the catalog gives "
         "one (DGX H100: 8.48 kW, Latif et al., arXiv:2412.08602), else at its rating."},
        {For::Training,
         "Failures: catalog MTBFs summed into a job MTBF; checkpoint interval and goodput by "
         "Daly's higher-order model for exponential failures (FGCS 2006; Young's sqrt(2·C·MTBF), "
         "CACM 1974, is its first term); compared with the Llama 3 405B run in "
         "docs/reliability-validation.md. Storage for checkpoints: the count of systems at the "
         "lowest cost per useful hour, each priced over the hardware's life with its power "
         "(docs/storage-model.md)."},
        {For::Inference,
         "Inference: a prompt's prefill, a batched prefill and a decode step as named operations "
         "(each GEMM the slower of its FLOPs and its weight reads, decode attention reading the "
         "K/V cache once per KV head, a fixed cost per kernel), the serving engine's scheduling "
         "(vLLM's chunked prefill for long-context models; vLLM 0.7 caches latent attention's "
         "latents, older engines every head's keys and values), batch cap and memory share; a "
         "replica with B batch slots is an M/M/B queue under Poisson arrivals, and a fixed fleet "
         "runs the sequences its load keeps in flight (Little's law, Operations Research 1961); "
         "validated in docs/validation-inference.md."},
        {For::Every,
         "Cost: list prices amortised straight-line over the lifetime plus energy at the "
         "facility's electricity price; an hourly price replaces both when given."},
    };
    std::vector<std::string> lines;
    for (const Assumption &assumption : assumptions)
        if (assumption.workload == For::Every
            || (assumption.workload == For::Training && workload == WorkloadType::Training)
            || (assumption.workload == For::Inference && workload == WorkloadType::Inference))
            lines.emplace_back(assumption.text);
    return lines;
}

} // namespace cp::model
