// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/scheduling/workloadtrace.h"

#include "model/core/inputerror.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace cp::model {

namespace {

constexpr int swfFields = 18;

std::vector<double> parseFields(const std::string &line, const std::string &file, long long number)
{
    std::istringstream in(line);
    std::vector<double> fields;
    std::string token;
    while (in >> token) {
        std::size_t used = 0;
        double value = 0;
        try {
            value = std::stod(token, &used);
        } catch (const std::exception &) {
            used = 0;
        }
        if (used != token.size() || !std::isfinite(value))
            throw InputError(file, "line " + std::to_string(number),
                             "field " + std::to_string(fields.size() + 1) + " is not a number: '"
                                 + token + "'");
        fields.push_back(value);
    }
    if (fields.size() != swfFields)
        throw InputError(file, "line " + std::to_string(number),
                         "expected 18 fields of the Standard Workload Format, found "
                             + std::to_string(fields.size()));
    return fields;
}

} // namespace

WorkloadTrace parseStandardWorkloadFormat(const std::string &text, const std::string &file)
{
    WorkloadTrace trace;
    std::istringstream in(text);
    std::string line;
    long long number = 0;
    while (std::getline(in, line)) {
        ++number;
        const auto first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos || line[first] == ';')
            continue;
        const std::vector<double> f = parseFields(line, file, number);
        const double submit = f[1];
        const double runtime = f[3];
        const double processors = f[4] > 0 ? f[4] : f[7];
        if (submit < 0 || runtime <= 0 || processors <= 0) {
            ++trace.skippedLines;
            continue;
        }
        if (processors > 1e9 || runtime > 1e12 || submit > 1e12)
            throw InputError(file, "line " + std::to_string(number),
                             "a job of more than 1e9 processors or 1e12 seconds cannot be "
                             "replayed");
        trace.jobs.push_back({submit, runtime, static_cast<int>(processors), 0});
    }
    if (!trace.jobs.empty()) {
        std::stable_sort(
            trace.jobs.begin(), trace.jobs.end(),
            [](const TraceJob &a, const TraceJob &b) { return a.submitSeconds < b.submitSeconds; });
        const double origin = trace.jobs.front().submitSeconds;
        for (TraceJob &job : trace.jobs)
            job.submitSeconds -= origin;
    }
    return trace;
}

std::string writeStandardWorkloadFormat(const std::vector<RecordedJob> &jobs,
                                        const std::string &comment)
{
    std::ostringstream out;
    out << "; Version: 2.2\n; Computer: " << comment << "\n; Note: written by ClusterPlanner's "
        << "scheduler simulation; processors are GPUs\n";
    long long number = 0;
    for (const RecordedJob &job : jobs) {
        const auto whole = [](double seconds) {
            return std::llround(seconds);
        };
        out << ++number << ' ' << whole(job.submitSeconds) << ' ' << whole(job.waitSeconds) << ' '
            << whole(job.runtimeSeconds) << ' ' << job.gpus << " -1 -1 " << job.gpus
            << " -1 -1 1 -1 -1 -1 " << job.classIndex + 1 << " -1 -1 -1\n";
    }
    return out.str();
}

} // namespace cp::model
