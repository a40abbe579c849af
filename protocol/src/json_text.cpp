#include "gcor/protocol/json_text.hpp"

#include <cstdint>

namespace gcor::protocol {

void append_json_string(std::string& out, std::string_view text) {
    static constexpr char kHex[] = "0123456789abcdef";
    out.push_back('"');
    std::size_t plain = 0;  // where the characters not yet appended begin
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        out.append(text.substr(plain, i - plain));
        plain = i + 1;
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\b':
                out += "\\b";
                break;
            case '\f':
                out += "\\f";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                out += "\\u00";
                out.push_back(kHex[c >> 4]);
                out.push_back(kHex[c & 0xF]);
        }
    }
    out.append(text.substr(plain));
    out.push_back('"');
}

void append_json(std::string& out, const Json& value) {
    switch (value.type()) {
        case Json::value_t::null:
            out += "null";
            return;
        case Json::value_t::boolean:
            out += value.get<bool>() ? "true" : "false";
            return;
        case Json::value_t::number_integer:
            return append_json_number(out, value.get<std::int64_t>());
        case Json::value_t::number_unsigned:
            return append_json_number(out, value.get<std::uint64_t>());
        case Json::value_t::string:
            return append_json_string(out, value.get_ref<const std::string&>());
        case Json::value_t::array:
            out.push_back('[');
            for (const Json& item : value) {
                if (&item != &value.front()) out.push_back(',');
                append_json(out, item);
            }
            out.push_back(']');
            return;
        case Json::value_t::object: {
            out.push_back('{');
            bool first = true;
            for (const auto& [key, item] : value.items()) {
                if (!first) out.push_back(',');
                first = false;
                append_json_string(out, key);
                out.push_back(':');
                append_json(out, item);
            }
            out.push_back('}');
            return;
        }
        default:
            out += value.dump();
    }
}

}  // namespace gcor::protocol
