// The game record stored per game in games.mdb: format (record_format.h), writer
// (RecordBuilder) and reader (RecordView). Include this to get all three.
#pragma once

#include "db/record_builder.h"
#include "db/record_format.h"
#include "db/record_view.h"
