// SPDX-License-Identifier: GPL-3.0-or-later
// Field-by-field validation of catalog entries: the JSON units are the datasheet's (GB, GB/s,
// Gb/s, TFLOP/s, W, USD) and every field name says its unit. This is the catalog's schema: each
// reader lists the fields it accepts, with their types and ranges, and rejects any other.
#pragma once

#include "model/catalog/catalogitems.h"

#include <nlohmann/json.hpp>

#include <string>

namespace cp::model {

class JsonFieldReader;

GpuSpec parseGpu(const nlohmann::json &entry, const std::string &file, const std::string &pointer);
NodeSpec parseNode(const nlohmann::json &entry, const std::string &file,
                   const std::string &pointer);
NicSpec parseNic(const nlohmann::json &entry, const std::string &file, const std::string &pointer);
SwitchSpec parseSwitch(const nlohmann::json &entry, const std::string &file,
                       const std::string &pointer);
StorageSpec parseStorage(const nlohmann::json &entry, const std::string &file,
                         const std::string &pointer);
RackSpec parseRack(const nlohmann::json &entry, const std::string &file,
                   const std::string &pointer);
FacilitySpec parseFacility(const nlohmann::json &entry, const std::string &file,
                           const std::string &pointer);
DatasetSpec parseDataset(const nlohmann::json &entry, const std::string &file,
                         const std::string &pointer);
ModelSpec parseModel(const nlohmann::json &entry, const std::string &file,
                     const std::string &pointer);
/**
 * A model's shape, shared by the catalog and the validation tables: layers, hidden, heads,
 * kv_heads, ffn, vocab, the MoE fields (experts, top_k, shared_experts, dense layers, expert
 * groups), head_dim, gated_mlp, tied_embeddings, bidirectional_attention, parallel_attention,
 * hidden_dropout, local and latent attention and mtp_layers, each refused at its own field when it
 * contradicts another.
 */
void readModelShape(JsonFieldReader &reader, ModelSpec &model);
/** A model's optional local attention (after "layers"): "sliding_window" (tokens) and
 * "sliding_window_layers", or "attention_chunk" (tokens) and "chunked_layers". */
void readLocalAttention(JsonFieldReader &reader, ModelSpec &model);
/** A model's optional multi-head latent attention (after "heads", "kv_heads"): "kv_lora_rank",
 * "q_lora_rank", "qk_rope_head_dim" and "v_head_dim". */
void readLatentAttention(JsonFieldReader &reader, ModelSpec &model);
/** An MoE model's optional "dense_layers" and "dense_ffn" (after "layers", "ffn", "experts"). */
void readDenseLayers(JsonFieldReader &reader, ModelSpec &model);
/** expert_groups and expert_groups_per_token (group-limited routing), with their rules. */
void readExpertGroups(JsonFieldReader &reader, ModelSpec &model);

std::string linkProtocolName(LinkProtocol protocol);

} // namespace cp::model
