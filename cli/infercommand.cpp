// SPDX-License-Identifier: GPL-3.0-or-later
#include "commands.h"

#include <ostream>

namespace cp::cli {

int runInferCommand(CliContext &context, const std::vector<std::string> &args, std::ostream &out)
{
    const auto specs = withCommonOptions({
        {"gpu", true, "GPU id"},
        {"gpus-per-replica", true, "GPUs per model replica (tensor parallel inside the node)"},
        {"model", true, "model id"},
        {"precision", true, "fp16|bf16|fp8|int8|int4"},
        {"kv-precision", true, "fp16|bf16|fp8|int8"},
        {"input-tokens", true, "prompt tokens per request"},
        {"output-tokens", true, "generated tokens per request"},
        {"batch", true, "concurrent sequences"},
        {"rate", true, "requests per second to serve"},
        {"ttft-p95-ms", true, "p95 time-to-first-token target"},
        {"tpot-p95-ms", true, "p95 time-per-output-token target"},
    });
    const ParsedArguments a = parseArguments(args, specs, "infer");
    if (a.has("help")) {
        out << usageText("clusterplanner-cli infer --gpu ID --model ID --precision P --input-tokens I --output-tokens O", specs);
        return ExitOk;
    }
    a.choice("precision", {"fp16", "bf16", "fp8", "int8", "int4"});
    a.choice("kv-precision", {"fp16", "bf16", "fp8", "int8"});
    a.integer("gpus-per-replica", 1, 1024);
    a.integer("input-tokens", 1, 1 << 24);
    a.integer("output-tokens", 1, 1 << 24);
    a.integer("batch", 1, 1 << 20);
    a.number("rate", 1e-9, 1e12);
    a.number("ttft-p95-ms", 1e-6, 1e9);
    a.number("tpot-p95-ms", 1e-6, 1e9);
    const model::Catalog &catalog = context.catalog();
    catalog.gpu(a.required("gpu"));
    catalog.llm(a.required("model"));
    throw std::runtime_error("the inference estimator is not part of this version yet");
}

} // namespace cp::cli
