#pragma once
// A finished table's result as standings count it: a league's division's and a tournament's.
#include <optional>

#include "gcor/store/table_store.hpp"
#include "leagues/standings.hpp"

namespace gcor::server {

// nullopt while the table is not finished.
std::optional<GameOutcome> outcome_of(const StoredTable& table);

}  // namespace gcor::server
