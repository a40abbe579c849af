#include "json_reader.hpp"

#include <vector>

namespace gcor::protocol {
namespace {

constexpr std::size_t kReusedParserBytes = 64 * 1024;

// Whether an object at any depth of `element` gives a member twice: nlohmann would keep the last
// one silently, where the protocol refuses it.
bool repeats_a_member(Element element) {
    if (simdjson::dom::array array; element.get(array) == simdjson::SUCCESS)
        return std::ranges::any_of(array, repeats_a_member);
    simdjson::dom::object object;
    if (element.get(object) != simdjson::SUCCESS) return false;
    std::vector<std::string_view> keys;
    for (const auto field : object) {
        if (std::ranges::find(keys, field.key) != keys.end() || repeats_a_member(field.value))
            return true;
        keys.push_back(field.key);
    }
    return false;
}

}  // namespace

int nesting_depth(std::string_view text) {
    int depth = 0, deepest = 0;
    bool in_string = false, escaped = false;
    for (char c : text) {
        if (in_string) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '{' || c == '[') {
            deepest = std::max(deepest, ++depth);
        } else if (c == '}' || c == ']') {
            --depth;
        }
    }
    return deepest;
}

simdjson::dom::parser& parser_for(std::size_t bytes, std::unique_ptr<simdjson::dom::parser>& own) {
    thread_local simdjson::dom::parser reused;
    if (bytes <= kReusedParserBytes) return reused;
    own = std::make_unique<simdjson::dom::parser>();
    return *own;
}

std::optional<Json> to_json(Element element) {
    if (repeats_a_member(element)) return std::nullopt;
    return Json::parse(simdjson::minify(element), nullptr, false);
}

}  // namespace gcor::protocol
