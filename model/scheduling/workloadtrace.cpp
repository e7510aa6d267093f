// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/scheduling/workloadtrace.h"

#include "model/core/inputerror.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
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

/** Seconds since 1970 of "2024-05-01T12:00:00" (UTC); nullopt when it is not such a time. */
std::optional<double> parseIsoTime(const std::string &text)
{
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    char extra = 0;
    if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%c", &year, &month, &day, &hour, &minute,
                    &second, &extra)
            != 6
        || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59
        || second > 60)
        return std::nullopt;
    // Days from the civil date (Howard Hinnant's days_from_civil), so no time zone is involved.
    const int y = year - (month <= 2 ? 1 : 0);
    const int era = (y >= 0 ? y : y - 399) / 400;
    const int yearOfEra = y - era * 400;
    const int dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    const int dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
    const long long days = static_cast<long long>(era) * 146097 + dayOfEra - 719468;
    return static_cast<double>(days * 86400 + hour * 3600 + minute * 60 + second);
}

/** The GPUs of an AllocTRES value: "cpu=64,gres/gpu=8,mem=1T,node=1" has 8; 0 without. */
int gpusOf(const std::string &tres)
{
    std::istringstream in(tres);
    std::string item;
    while (std::getline(in, item, ',')) {
        const auto equals = item.find('=');
        if (equals == std::string::npos || item.compare(0, equals, "gres/gpu") != 0)
            continue;
        try {
            return std::stoi(item.substr(equals + 1));
        } catch (const std::exception &) {
            return 0;
        }
    }
    return 0;
}

std::vector<std::string> splitBars(const std::string &line)
{
    std::vector<std::string> fields;
    std::istringstream in(line);
    std::string field;
    while (std::getline(in, field, '|'))
        fields.push_back(field);
    if (!line.empty() && line.back() == '|')
        fields.emplace_back();
    return fields;
}

/** Sorts by submit time and shifts so that the first job comes at 0. */
void startAtZero(WorkloadTrace &trace)
{
    if (trace.jobs.empty())
        return;
    std::stable_sort(
        trace.jobs.begin(), trace.jobs.end(),
        [](const TraceJob &a, const TraceJob &b) { return a.submitSeconds < b.submitSeconds; });
    const double origin = trace.jobs.front().submitSeconds;
    for (TraceJob &job : trace.jobs)
        job.submitSeconds -= origin;
}

} // namespace

WorkloadTrace parseSlurmAccounting(const std::string &text, const std::string &file)
{
    WorkloadTrace trace;
    std::istringstream in(text);
    std::string line;
    long long number = 0;
    std::map<std::string, std::size_t> column;
    while (std::getline(in, line)) {
        ++number;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.empty())
            continue;
        const std::vector<std::string> fields = splitBars(line);
        const std::string where = "line " + std::to_string(number);
        if (column.empty()) {
            for (std::size_t i = 0; i < fields.size(); ++i)
                column[fields[i]] = i;
            for (const char *name : {"JobID", "Submit", "Start", "End", "AllocTRES"})
                if (!column.contains(name))
                    throw InputError(file, where,
                                     std::string("the header names no ") + name
                                         + " field (sacct --parsable2 --format=JobID,Submit,"
                                           "Start,End,AllocTRES)");
            continue;
        }
        if (fields.size() < column.size())
            throw InputError(file, where,
                             "expected " + std::to_string(column.size()) + " fields, found "
                                 + std::to_string(fields.size()));
        const auto field = [&](const char *name) {
            return fields[column.at(name)];
        };
        if (field("JobID").find('.') != std::string::npos)
            continue; // a step of a job already counted
        const auto submit = parseIsoTime(field("Submit"));
        if (!submit)
            throw InputError(file, where, "Submit is not a time: '" + field("Submit") + "'");
        const auto start = parseIsoTime(field("Start"));
        const auto end = parseIsoTime(field("End"));
        const int gpus = gpusOf(field("AllocTRES"));
        if (!start || !end || *end <= *start || gpus <= 0) {
            ++trace.skippedLines; // never ran (Start "Unknown"), or holds no GPU
            continue;
        }
        trace.jobs.push_back({*submit, *end - *start, gpus, 0});
    }
    startAtZero(trace);
    return trace;
}

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
    startAtZero(trace);
    return trace;
}

double traceSpanSeconds(const std::vector<TraceJob> &jobs)
{
    double span = 0;
    for (const TraceJob &job : jobs)
        span = std::max(span, job.submitSeconds + job.runtimeSeconds);
    return span;
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
