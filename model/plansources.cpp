// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/plansources.h"

#include "model/catalog.h"
#include "model/plan.h"

#include <algorithm>
#include <set>

namespace cp::model {

std::vector<CatalogSourceLine> catalogSourcesForPlans(const std::vector<Plan> &plans,
                                                      const Catalog &catalog)
{
    std::set<std::string> ids;
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

std::vector<std::string> estimateAssumptions()
{
    return {
        "Training FLOPs: three passes of the layers' GEMMs, attention and logits as in Narayanan "
        "et al., SC21 (72·B·s·l·h²(1 + s/6h + V/12lh) for GPT); compute time at dense peak x the "
        "catalog's GEMM efficiency (Hockney half-performance model).",
        "Memory: ZeRO model states of 2+2+12 bytes per parameter sharded by stage (Rajbhandari "
        "et al., SC20); activations after Korthikanti et al. 2022, generalised to GQA and MoE.",
        "Pipeline: 1F1B or interleaved, a step of (m + (p-1)/v) stage times (Narayanan et al., "
        "SC21).",
        "Collectives: ring and hierarchical all-reduce at NCCL bus bandwidth from the catalog "
        "(nccl-tests PERFORMANCE.md); the scale-out rate is measured on the generated fabric "
        "graph (docs/fabric-model.md).",
        "Fabric switch counts: folded Clos (Al-Fares et al., SIGCOMM 2008) and the NVIDIA DGX "
        "SuperPOD reference architecture for rail-optimised designs.",
        "Power: GPUs at utilisation-dependent draw between idle and TDP, servers, switches and "
        "optics at datasheet power; facility power = IT x PUE (The Green Grid, 2012).",
        "Failures: catalog MTBFs summed into a job MTBF; checkpoint every sqrt(2·C·MTBF) (Young, "
        "CACM 1974), goodput after Daly (FGCS 2006); compared with the Llama 3 405B run in "
        "docs/reliability-validation.md.",
        "Inference: prefill and decode rooflines over dense peak and HBM bandwidth with catalog "
        "efficiencies; a replica with B batch slots is an M/M/B queue under Poisson arrivals "
        "(docs/inference-validation.md).",
        "Cost: list prices amortised straight-line over the lifetime plus energy at the "
        "facility's electricity price; an hourly price replaces both when given.",
    };
}

} // namespace cp::model
