// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace cp::model {

/** One number printed with a printf `format` ("%.1f ms"): the model's explanations use it. */
std::string formatNumber(const char *format, double value);

/** `figure`, then ": " and `reason` where there is one: a figure with why it is what it is
 * ("1.94% of wall time is useful work: a failure every 3 min against 10 min to restart"). */
std::string withReason(std::string figure, const std::string &reason);

/** A count as people read it: 1024 as "1,024", -2048000 as "-2,048,000". */
std::string groupedCount(long long value);
/** A count and its noun, in the singular for one: "1 sequence", "1,024 sequences". */
std::string countOf(long long value, const std::string &singular, const std::string &plural);

/**
 * `number` (a printed number: "-1390.5", "878519200") with its integer digits grouped in
 * thousands: "-1,390.5", "878,519,200". Text that does not start with digits is returned as is.
 */
std::string groupThousands(std::string number);

/** A name as an identifier: lower-case letters and digits, other runs as one dash ("NVIDIA DGX
 * H100" -> "nvidia-dgx-h100"); "item" when nothing is left. NetBox slugs, device names. */
std::string slugOf(const std::string &text);

/**
 * A waiting time as people say it, to about three digits: "0 s", "45 s", "12 min", "5.3 h",
 * "12.4 days" (minutes from 90 s, hours from 90 min, days from 48 h); "-" for a negative or
 * non-finite time.
 */
std::string humanWait(double seconds);

/**
 * A duration to three significant digits, for figures people compare: "48.7 us", "45.2 ms",
 * "45.2 s", "2.09 min", "10.2 h", "3.50 days", "1,234 days" (milliseconds under a second,
 * microseconds under a millisecond, minutes from 90 s, hours from 90 min, days from 48 h); "-"
 * for a negative or non-finite time.
 */
std::string humanDuration(double seconds);

/** Energy as people quote it, to about three digits: "850 Wh", "13.2 kWh", "4.10 MWh",
 * "1.23 GWh"; "-" for a negative or non-finite amount. */
std::string humanEnergy(double joules);

/** A mass of CO2-equivalent emissions as people quote it, to about three digits: "230 g CO2e",
 * "4.10 kg CO2e", "12.4 t CO2e", "1,230 t CO2e"; "-" for a negative or non-finite amount. */
std::string humanCarbon(double kilograms);

/** Power as people quote it, to about three digits: "850 W", "42.1 kW", "36.1 MW", "1.45 GW";
 * "-" for a negative or non-finite amount. */
std::string humanPower(double watts);

/** IT power by where it goes (the four parts of a plan's or a run's draw). */
struct ItPowerParts
{
    double gpusWatts = 0;
    double nodesWatts = 0; ///< the servers around the GPUs: CPUs, memory, fans, NICs
    double networkWatts = 0;
    double storageWatts = 0;
};

/**
 * The IT power and its parts as the CLI and the report print them: "1.40 MW (GPUs 717 kW, nodes
 * 480 kW, network 150 kW, storage 50.0 kW)"; `gpuNote` follows the GPUs' figure (" at 95%
 * busy").
 */
std::string itPowerText(const ItPowerParts &parts, const std::string &gpuNote = {});

/** Money in US dollars, to about three digits: "$850", "$12.3 k", "$53.3 M", "$7.50 B"; "-" for a
 * negative or non-finite amount. Bills of materials keep whole dollars. */
std::string humanUsd(double usd);

/** A compute rate in decimal units, to about three digits: "989 TFLOP/s", "31.7 PFLOP/s",
 * "130 EFLOP/s"; "-" for a negative or non-finite rate. */
std::string humanFlopsRate(double flopsPerSecond);

/** A size in decimal bytes, to about three digits: "640 GB", "4.82 TB", "11.2 PB"; "-" for a
 * negative or non-finite size. */
std::string humanBytes(double bytes);

/** A quantity to about three significant digits, grouped and never in exponent form: 0.00352,
 * 1.21, 24.2, 162, 21,437, 22,488,003,278; "-" when not finite. */
std::string threeDigits(double value);

/** A fraction as a percentage: percentText(0.1234) is "12.3%", with `decimals` digits after the
 * point, and with `withSign` a sign on every value ("+12.3%", "-4.0%"); "-" when not finite. */
std::string percentText(double fraction, int decimals = 1, bool withSign = false);
/** "a, b and c": the items in their order, the last two joined by "and". */
std::string joinedList(const std::vector<std::string> &items);
/** A share (of time) as people read it: one decimal, two below 1% ("4.3%", "0.26%"), so a small
 * stall is not printed as "0%". */
std::string shareText(double fraction);

} // namespace cp::model
