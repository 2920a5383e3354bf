/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "json-document.h"

#include "input-error.h"
#include "text-util.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iterator>
#include <vector>

namespace ns3
{

/// Source line of a value; children in the order of the value's elements or members.
struct JsonDocument::LineNode
{
    std::size_t line = 0;
    std::vector<std::string> keys;   ///< Member names (objects only), parallel to children.
    std::vector<LineNode> children;  ///< Array elements or object members.
};

namespace
{

/// Input iterator over a string that publishes how far the parser has read.
class TrackingIterator
{
  public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    TrackingIterator(const char* p, std::size_t* readTo, const char* base)
        : m_p(p),
          m_readTo(readTo),
          m_base(base)
    {
    }

    reference operator*() const
    {
        std::size_t pos = static_cast<std::size_t>(m_p - m_base) + 1;
        if (pos > *m_readTo)
        {
            *m_readTo = pos;
        }
        return *m_p;
    }

    TrackingIterator& operator++()
    {
        ++m_p;
        return *this;
    }

    TrackingIterator operator++(int)
    {
        TrackingIterator t = *this;
        ++m_p;
        return t;
    }

    bool operator==(const TrackingIterator& o) const
    {
        return m_p == o.m_p;
    }

    bool operator!=(const TrackingIterator& o) const
    {
        return m_p != o.m_p;
    }

  private:
    const char* m_p;
    std::size_t* m_readTo;
    const char* m_base;
};

std::string
EscapePointerToken(const std::string& key)
{
    std::string out;
    for (char c : key)
    {
        if (c == '~')
        {
            out += "~0";
        }
        else if (c == '/')
        {
            out += "~1";
        }
        else
        {
            out += c;
        }
    }
    return out;
}

std::string
UnescapePointerToken(const std::string& token)
{
    std::string out;
    for (std::size_t i = 0; i < token.size(); ++i)
    {
        if (token[i] == '~' && i + 1 < token.size() && (token[i + 1] == '0' || token[i + 1] == '1'))
        {
            out += token[i + 1] == '0' ? '~' : '/';
            ++i;
        }
        else
        {
            out += token[i];
        }
    }
    return out;
}

/// Split a JSON pointer into its (escaped) tokens.
std::vector<std::string>
PointerTokens(const std::string& pointer)
{
    std::vector<std::string> tokens;
    std::size_t pos = 0;
    while (pos < pointer.size())
    {
        std::size_t next = pointer.find('/', pos + 1);
        tokens.push_back(pointer.substr(pos + 1, next == std::string::npos ? std::string::npos
                                                                           : next - pos - 1));
        if (next == std::string::npos)
        {
            break;
        }
        pos = next;
    }
    return tokens;
}

/**
 * SAX handler of nlohmann-json that builds the DOM and the line tree together, in one pass,
 * and enforces the strict rules of JsonDocument (duplicate keys, control characters, depth).
 * Every error is thrown as InputError; nothing is quadratic: the line of an event comes from
 * a cursor that only moves forward through the text.
 */
class DocumentBuilder
{
  public:
    using json = nlohmann::json;

    DocumentBuilder(const std::string& file,
                    const std::string& text,
                    const std::size_t* readTo,
                    json& root,
                    JsonDocument::LineNode& rootLines)
        : m_file(file),
          m_text(text),
          m_readTo(readTo),
          m_root(root),
          m_rootLines(rootLines)
    {
    }

    bool null()
    {
        return Value(json(nullptr));
    }

    bool boolean(bool v)
    {
        return Value(json(v));
    }

    bool number_integer(json::number_integer_t v)
    {
        return Value(json(v));
    }

    bool number_unsigned(json::number_unsigned_t v)
    {
        return Value(json(v));
    }

    bool number_float(json::number_float_t v, const json::string_t& /*text*/)
    {
        return Value(json(v));
    }

    bool string(json::string_t& v)
    {
        CheckControl(v, "the string", ChildPointer());
        return Value(json(v));
    }

    bool binary(json::binary_t& /*v*/)
    {
        Throw(CurrentLine(), ChildPointer(), "binary values are not JSON");
    }

    bool start_object(std::size_t /*elements*/)
    {
        return Open(json::object());
    }

    bool key(json::string_t& k)
    {
        Frame& f = m_stack.back();
        CheckControl(k, "a key", PointerOf(m_stack.size()));
        if (f.value->contains(k))
        {
            std::size_t first = 0;
            for (std::size_t i = 0; i < f.lines->keys.size(); ++i)
            {
                if (f.lines->keys[i] == k)
                {
                    first = f.lines->children[i].line;
                }
            }
            Throw(CurrentLine(),
                  PointerOf(m_stack.size()) + "/" + EscapePointerToken(k),
                  "duplicate key '" + k + "' (first given on line " + std::to_string(first) +
                      "; a key may appear once in an object)");
        }
        f.key = k;
        return true;
    }

    bool end_object()
    {
        m_stack.pop_back();
        return true;
    }

    bool start_array(std::size_t /*elements*/)
    {
        return Open(json::array());
    }

    bool end_array()
    {
        m_stack.pop_back();
        return true;
    }

    bool parse_error(std::size_t position,
                     const std::string& lastToken,
                     const nlohmann::detail::exception& e)
    {
        // The offending byte; at the end of the input, the last non-blank one.
        std::size_t p = std::min(position, m_text.size());
        while (p > 1 && std::isspace(static_cast<unsigned char>(m_text[p - 1])))
        {
            --p;
        }
        std::size_t line = LineAtOffset(p > 0 ? p - 1 : 0);
        std::string message;
        if (e.id == 406)
        {
            message = "number '" + lastToken + "' is out of range (not a finite double)";
        }
        else
        {
            // Strip "[json.exception.parse_error.101] parse error at line x, column y: ".
            std::string what = e.what();
            auto colon = what.find(": ");
            message = "JSON syntax error: " +
                      (colon == std::string::npos ? what : what.substr(colon + 2));
        }
        Throw(line, ChildPointer(), message);
    }

  private:
    struct Frame
    {
        json* value;
        JsonDocument::LineNode* lines;
        std::string token; ///< This value's pointer token in its parent.
        std::string key;   ///< Objects: the key of the member being read.
    };

    [[noreturn]] void Throw(std::size_t line, const std::string& pointer, const std::string& m)
    {
        throw InputError(m_file, line, JsonDocument::FieldName(pointer), m);
    }

    /// Pointer of the value at stack depth \p depth (0: the root).
    std::string PointerOf(std::size_t depth) const
    {
        std::string p;
        for (std::size_t i = 1; i < depth && i < m_stack.size(); ++i)
        {
            p += "/" + m_stack[i].token;
        }
        return p;
    }

    /// Pointer of the value being read now (a child of the innermost open container).
    std::string ChildPointer() const
    {
        if (m_stack.empty())
        {
            return "";
        }
        const Frame& f = m_stack.back();
        return PointerOf(m_stack.size()) + "/" +
               (f.value->is_array() ? std::to_string(f.value->size())
                                    : EscapePointerToken(f.key));
    }

    void CheckControl(const std::string& s, const char* what, const std::string& pointer)
    {
        for (char c : s)
        {
            if (static_cast<unsigned char>(c) < 0x20)
            {
                char code[8];
                std::snprintf(code, sizeof code, "%04X", static_cast<unsigned>(c));
                Throw(CurrentLine(),
                      pointer,
                      std::string(what) + " holds the control character U+" + code);
            }
        }
    }

    /// 1-based line of byte \p offset; offsets asked for only grow (else: count from 0).
    std::size_t LineAtOffset(std::size_t offset)
    {
        offset = std::min(offset, m_text.size());
        if (offset < m_cursor)
        {
            m_cursor = 0;
            m_line = 1;
        }
        m_line += static_cast<std::size_t>(
            std::count(m_text.begin() + static_cast<std::ptrdiff_t>(m_cursor),
                       m_text.begin() + static_cast<std::ptrdiff_t>(offset),
                       '\n'));
        m_cursor = offset;
        return m_line;
    }

    /// Line of the last non-blank character the lexer has read: the token just recognised
    /// (the lexer reads at most one character past a number or literal).
    std::size_t CurrentLine()
    {
        std::size_t p = std::min(*m_readTo, m_text.size());
        while (p > 0 && std::isspace(static_cast<unsigned char>(m_text[p - 1])))
        {
            --p;
        }
        return LineAtOffset(p > 0 ? p - 1 : 0);
    }

    /// Place a new value in the innermost container (or at the root); returns its slots.
    std::pair<json*, JsonDocument::LineNode*> Slot(std::string& token)
    {
        if (m_stack.empty())
        {
            return {&m_root, &m_rootLines};
        }
        Frame& f = m_stack.back();
        f.lines->children.emplace_back();
        if (f.value->is_array())
        {
            token = std::to_string(f.value->size());
            f.value->push_back(json());
            return {&f.value->back(), &f.lines->children.back()};
        }
        token = EscapePointerToken(f.key);
        f.lines->keys.push_back(f.key);
        return {&(*f.value)[f.key], &f.lines->children.back()};
    }

    bool Value(json v)
    {
        std::size_t line = CurrentLine();
        std::string token;
        auto [slot, lines] = Slot(token);
        *slot = std::move(v);
        lines->line = line;
        return true;
    }

    bool Open(json container)
    {
        std::size_t line = CurrentLine();
        if (m_stack.size() >= JsonDocument::MaxDepth())
        {
            Throw(line,
                  ChildPointer(),
                  "objects and arrays nested deeper than " +
                      std::to_string(JsonDocument::MaxDepth()) + " levels");
        }
        std::string token;
        auto [slot, lines] = Slot(token);
        *slot = std::move(container);
        lines->line = line;
        m_stack.push_back(Frame{slot, lines, token, ""});
        return true;
    }

    const std::string& m_file;
    const std::string& m_text;
    const std::size_t* m_readTo;
    json& m_root;
    JsonDocument::LineNode& m_rootLines;
    std::vector<Frame> m_stack;
    std::size_t m_cursor = 0; ///< Offset up to which newlines are counted.
    std::size_t m_line = 1;   ///< Line at m_cursor.
};

} // namespace

JsonDocument::JsonDocument()
    : m_root(std::make_unique<nlohmann::json>()),
      m_lines(std::make_unique<LineNode>())
{
}

JsonDocument::JsonDocument(JsonDocument&&) noexcept = default;
JsonDocument& JsonDocument::operator=(JsonDocument&&) noexcept = default;
JsonDocument::~JsonDocument() = default;

JsonDocument
JsonDocument::Load(const std::string& path)
{
    return Parse(path, TextUtil::ReadFile(path));
}

JsonDocument
JsonDocument::Parse(const std::string& file, const std::string& text)
{
    std::size_t skip = TextUtil::CheckEncoding(file, text);
    JsonDocument doc;
    doc.m_file = file;
    std::size_t readTo = 0;
    DocumentBuilder builder(file, text, &readTo, *doc.m_root, *doc.m_lines);
    const char* begin = text.data();
    TrackingIterator first(begin + skip, &readTo, begin);
    TrackingIterator last(begin + text.size(), &readTo, begin);
    nlohmann::json::sax_parse(first, last, &builder);
    return doc;
}

const std::string&
JsonDocument::File() const
{
    return m_file;
}

const nlohmann::json&
JsonDocument::Root() const
{
    return *m_root;
}

std::size_t
JsonDocument::LineOf(const std::string& pointer) const
{
    const LineNode* node = m_lines.get();
    for (const std::string& escaped : PointerTokens(pointer))
    {
        const LineNode* next = nullptr;
        if (!node->keys.empty())
        {
            std::string key = UnescapePointerToken(escaped);
            for (std::size_t i = 0; i < node->keys.size() && !next; ++i)
            {
                next = node->keys[i] == key ? &node->children[i] : nullptr;
            }
        }
        else
        {
            unsigned long long index = 0;
            if (TextUtil::ParseUnsigned(escaped, index) && index < node->children.size())
            {
                next = &node->children[index];
            }
        }
        if (!next)
        {
            break;
        }
        node = next;
    }
    return node->line;
}

std::string
JsonDocument::FieldName(const std::string& pointer)
{
    std::string out;
    for (const std::string& escaped : PointerTokens(pointer))
    {
        bool numeric = !escaped.empty();
        for (char c : escaped)
        {
            numeric = numeric && std::isdigit(static_cast<unsigned char>(c));
        }
        if (numeric)
        {
            out += "[" + escaped + "]";
        }
        else
        {
            out += (out.empty() ? "" : ".") + UnescapePointerToken(escaped);
        }
    }
    return out;
}

void
JsonDocument::Fail(const std::string& pointer, const std::string& message) const
{
    throw InputError(m_file, LineOf(pointer), FieldName(pointer), message);
}

} // namespace ns3
