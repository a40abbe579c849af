#pragma once
// Strict reading of JSON from outside the process with simdjson: what requests, stored table
// settings and documents share (the protocol's internal header, not part of its interface).
#include <simdjson.h>

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "gcor/protocol/game_json.hpp"
#include "gcor/protocol/table_settings.hpp"

namespace gcor::protocol {

using Element = simdjson::dom::element;

// Nesting depth of a JSON text, counted before parsing so that a deeply nested message costs
// nothing to refuse.
int nesting_depth(std::string_view text);

// The parser for a message of `bytes`: the thread's own (which keeps its buffers between
// messages), or for a large one a new one held by `own`, so that a thread does not hold on to the
// memory of the largest message it ever saw.
simdjson::dom::parser& parser_for(std::size_t bytes, std::unique_ptr<simdjson::dom::parser>& own);

// A nested member (an object or an array) as a Json value, for the readers that take one.
// nullopt when an object in it gives a member twice (nlohmann would keep the last one silently).
std::optional<Json> to_json(Element element);

// Reads the members of one JSON object, recording the first problem.
class Reader {
  public:
    explicit Reader(simdjson::dom::object object) : object_(object) {}

    std::optional<std::string> error;

    // Refuses members other than "type", "id" and `allowed`, and any member given twice.
    void only(std::initializer_list<std::string_view> allowed) {
        assert(allowed.size() + 2 <= kNoBit);
        std::uint32_t seen = 0;  // bit i: allowed[i]; the last two bits: "type" and "id"
        for (const auto field : object_) {
            const auto known = std::find(allowed.begin(), allowed.end(), field.key);
            const std::size_t bit = known != allowed.end() ? known - allowed.begin()
                                    : field.key == "type"  ? allowed.size()
                                    : field.key == "id"    ? allowed.size() + 1
                                                           : kNoBit;
            if (bit == kNoBit) return fail("unknown field \"" + std::string(field.key) + "\"");
            if (seen & (1u << bit))
                return fail("\"" + std::string(field.key) + "\" is given twice");
            seen |= 1u << bit;
        }
    }
    std::optional<Element> find(std::string_view key) const {
        Element value;
        if (object_.at_key(key).get(value) != simdjson::SUCCESS) return std::nullopt;
        return value;
    }
    std::string string(const char* key, std::size_t max_length, bool required) {
        const auto value = find(key);
        if (!value) {
            if (required) fail(std::string("\"") + key + "\" is required");
            return {};
        }
        std::string_view text;
        if (value->get(text) != simdjson::SUCCESS || text.size() > max_length)
            return fail(std::string("\"") + key + "\" must be a string of at most " +
                        std::to_string(max_length) + " characters"),
                   std::string();
        return std::string(text);
    }
    bool boolean(const char* key, bool fallback) {
        const auto value = find(key);
        if (!value) return fallback;
        bool flag = fallback;
        if (value->get(flag) != simdjson::SUCCESS)
            return fail(std::string("\"") + key + "\" must be true or false"), fallback;
        return flag;
    }
    std::optional<long long> integer(const char* key, long long min, long long max, bool required) {
        const auto value = find(key);
        if (!value) {
            if (required) fail(std::string("\"") + key + "\" is required");
            return std::nullopt;
        }
        std::int64_t number = 0;
        if (value->get(number) != simdjson::SUCCESS || number < min || number > max)
            return fail(std::string("\"") + key + "\" must be a whole number from " +
                        std::to_string(min) + " to " + std::to_string(max)),
                   std::nullopt;
        return number;
    }
    void fail(std::string message) {
        if (!error) error = std::move(message);
    }

  private:
    static constexpr std::size_t kNoBit = 32;
    simdjson::dom::object object_;
};

// Reads the members of TableSettings (table_settings.cpp): the caller's `only` says which
// members its object may have besides them.
void read_table_settings(Reader& r, TableSettings& settings);

}  // namespace gcor::protocol
