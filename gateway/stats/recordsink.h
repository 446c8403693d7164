#pragma once

// Where finished requests' records go beyond the in-memory log: the lasting history (history/), when
// the config has one. Called on the worker that finished the request, so an implementation must not
// wait on anything (HistoryStore queues the record for its writer thread).

#include "stats/requestrecord.h"

namespace switchyard::stats {

class RecordSink
{
public:
    virtual ~RecordSink() = default;
    // False when the record was dropped (the writer is behind and its queue full): the caller counts it.
    virtual bool append(const RequestRecord &record) = 0;
};

} // namespace switchyard::stats
