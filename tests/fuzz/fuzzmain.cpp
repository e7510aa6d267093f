// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer entry: CP_FUZZ_TARGET names the function of fuzztargets.h this executable fuzzes.
#include "fuzztargets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    cp::fuzz::CP_FUZZ_TARGET(data, size);
    return 0;
}
