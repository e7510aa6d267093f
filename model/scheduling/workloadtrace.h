// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/scheduling/schedulingtypes.h"

#include <string>
#include <vector>

namespace cp::model {

/** A replayable trace: its jobs and what was left out of it. */
struct WorkloadTrace
{
    std::vector<TraceJob> jobs;
    long long skippedLines = 0; ///< jobs without a run time or a processor count (SWF's -1)
};

/**
 * Reads the Standard Workload Format of the Parallel Workloads Archive (Feitelson, Tsafrir and
 * Krakov, "Experience with using the Parallel Workloads Archive", JPDC 74(10), 2014; field list
 * at https://www.cs.huji.ac.il/labs/parallel/workload/swf.html): one job per line, 18
 * whitespace-separated fields, ';' comment lines. A job is submitted at field 2 (seconds), runs
 * field 4 (seconds) on field 5 processors (field 8, the request, when 5 is unknown); each
 * processor is taken as one GPU. Submit times are shifted so the first job comes at 0. A
 * malformed line throws InputError naming `file` and the line.
 */
WorkloadTrace parseStandardWorkloadFormat(const std::string &text, const std::string &file);

/**
 * Reads Slurm accounting as `sacct --allocations --parsable2 --format=JobID,Submit,Start,End,
 * AllocTRES` prints it (sacct(1)): a header line naming the fields (in any order; others are
 * ignored), then one job per line, '|' between fields. A job is submitted at Submit and runs
 * from Start to End (ISO 8601 times, UTC) on the GPUs of AllocTRES's gres/gpu=N; jobs that
 * never started or hold no GPU are skipped, job steps ("123.batch") too. Submit times are
 * shifted so the first job comes at 0. A malformed line throws InputError naming `file` and
 * the line.
 */
WorkloadTrace parseSlurmAccounting(const std::string &text, const std::string &file);

/** The period a trace covers: to the latest end of its jobs, each run from its submission (the
 * first job comes at 0). 0 for no jobs. */
double traceSpanSeconds(const std::vector<TraceJob> &jobs);

/**
 * The jobs of a simulated run as a Standard Workload Format log: job number, submit, wait and
 * run time in whole seconds (rounded), GPUs as allocated and requested processors, status 1
 * (completed), the job class as the queue number (from 1), -1 for the fields not simulated.
 * parseStandardWorkloadFormat reads it back.
 */
std::string writeStandardWorkloadFormat(const std::vector<RecordedJob> &jobs,
                                        const std::string &comment);

} // namespace cp::model
