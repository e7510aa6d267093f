// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/inference/chunkedprefill.h"

#include "model/core/humantext.h"

namespace cp::model {

std::string chunkedPrefillText(const InferenceEstimate &e)
{
    if (e.prefillChunks < 1)
        return {};
    std::string text = e.prefillChunks == 1
        ? "in one chunk of " + groupedCount(e.prefillChunkTokens) + " tokens"
        : "in " + groupedCount(e.prefillChunks) + " chunks of up to "
            + groupedCount(e.prefillChunkTokens) + " tokens";
    if (e.prefillDecodeSeconds > 0)
        text += std::string("; ") + (e.prefillChunks == 1 ? "its step" : "its steps")
            + " also run the batch's decodes, " + humanDuration(e.prefillDecodeSeconds) + " more";
    return text;
}

} // namespace cp::model
