// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/inference/servingfloor.h"

#include "model/core/humantext.h"
#include "model/inference/inferencestep.h"

#include <algorithm>

namespace cp::model {

double ServingFloor::weightBytesRead(double tokens) const
{
    // The input embedding's rows are gathered, not streamed; an untied output projection is
    // read whole, and a tied table is read once, as that projection.
    const double gatheredOnly = shape.tiedEmbeddings ? 0.0 : shape.vocab * shape.hidden;
    double parameters = shape.totalParameters() - gatheredOnly;
    if (shape.experts > 1) {
        const double untouched
            = 1.0 - shape.routedExpertsTouched(std::max(1.0, tokens)) / shape.experts;
        parameters -= shape.layers * shape.routedExpertParametersPerLayer() * untouched;
    }
    return parameters * bytesPerElement(weightPrecision) / tensorParallel;
}

double ServingFloor::gemmFlops(double tokens) const
{
    return 2.0 * (shape.activeParameters() - shape.embeddingParameters()) * tokens / tensorParallel;
}

double ServingFloor::passSeconds(double tokens, double otherBytesRead) const
{
    return std::max((weightBytesRead(tokens) + otherBytesRead) / memoryBytesPerSecond,
                    gemmFlops(tokens) / peakFlopsPerSecond);
}

ServingFloor servingFloorOf(const TransformerShape &shape, const GpuSpec &gpu,
                            Precision weightPrecision, double tensorParallel)
{
    ServingFloor floor;
    floor.shape = shape;
    floor.weightPrecision = weightPrecision;
    floor.tensorParallel = tensorParallel;
    floor.memoryBytesPerSecond = gpu.memoryBytesPerSecond;
    floor.peakFlopsPerSecond = gpu.peakFlopsPerSecond(computePrecision(gpu, weightPrecision));
    return floor;
}

std::string servingFloorText(const InferenceEstimate &estimate)
{
    if (estimate.prefillFloorSeconds <= 0 || estimate.decodeFloorSeconds <= 0)
        return {};
    return "prefill " + threeDigits(estimate.prefillFloorSeconds * 1e3) + " ms, decode step "
        + threeDigits(estimate.decodeFloorSeconds * 1e3) + " ms; the estimate takes "
        + formatNumber("%.1f", estimate.prefillSeconds / estimate.prefillFloorSeconds) + "x and "
        + formatNumber("%.1f", estimate.decodeStepSeconds / estimate.decodeFloorSeconds)
        + "x as long";
}

} // namespace cp::model
