// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/inference/inferenceestimate.h"

#include <string>

namespace cp::model {

/**
 * How one prompt's prefill runs on an engine that chunks it, for the title of its operations:
 * "in 250 chunks of up to 512 tokens; its steps also run the batch's decodes, 3.23 s more", so that
 * the operations (the chunks' work) and that remainder add up to the prefill time. Empty
 * without chunked prefill.
 */
std::string chunkedPrefillText(const InferenceEstimate &estimate);

} // namespace cp::model
