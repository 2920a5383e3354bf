/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "json-document.h"

#include "input-error.h"
#include "text-util.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <iterator>
#include <vector>

namespace ns3
{

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

} // namespace

JsonDocument::JsonDocument()
    : m_root(std::make_unique<nlohmann::json>())
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
    JsonDocument doc;
    doc.m_file = file;
    std::size_t readTo = 0;
    // Line of the last non-blank character the lexer has consumed: the line of the token
    // that has just been recognised.
    auto currentLine = [&]() {
        std::size_t p = std::min(readTo, text.size());
        while (p > 0 && std::isspace(static_cast<unsigned char>(text[p - 1])))
        {
            --p;
        }
        return TextUtil::LineOfOffset(text, p > 0 ? p - 1 : 0);
    };

    struct Frame
    {
        std::string pointer;
        bool isArray;
        std::size_t index;
        std::string key;
    };

    std::vector<Frame> stack;
    auto childPointer = [&]() -> std::string {
        if (stack.empty())
        {
            return "";
        }
        const Frame& f = stack.back();
        return f.pointer + "/" + (f.isArray ? std::to_string(f.index) : EscapePointerToken(f.key));
    };
    auto advance = [&]() {
        if (!stack.empty() && stack.back().isArray)
        {
            ++stack.back().index;
        }
    };

    using Event = nlohmann::json::parse_event_t;
    auto callback = [&](int /*depth*/, Event event, nlohmann::json& parsed) {
        switch (event)
        {
        case Event::object_start:
        case Event::array_start: {
            std::string p = childPointer();
            doc.m_lines.emplace(p, currentLine());
            stack.push_back(Frame{p, event == Event::array_start, 0, ""});
            break;
        }
        case Event::key:
            if (!stack.empty())
            {
                stack.back().key = parsed.get<std::string>();
            }
            break;
        case Event::object_end:
        case Event::array_end:
            if (!stack.empty())
            {
                stack.pop_back();
            }
            advance();
            break;
        case Event::value:
            doc.m_lines.emplace(childPointer(), currentLine());
            advance();
            break;
        }
        return true;
    };

    const char* begin = text.data();
    TrackingIterator first(begin, &readTo, begin);
    TrackingIterator last(begin + text.size(), &readTo, begin);
    try
    {
        *doc.m_root = nlohmann::json::parse(first, last, callback, true, false);
    }
    catch (const nlohmann::json::parse_error& e)
    {
        std::size_t line = TextUtil::LineOfOffset(text, e.byte > 0 ? e.byte - 1 : 0);
        std::string what = e.what();
        // Strip nlohmann's "[json.exception.parse_error.101] parse error at line x, column y: "
        auto colon = what.find(": ");
        std::string msg = colon == std::string::npos ? what : what.substr(colon + 2);
        throw InputError(file, line, "", "JSON syntax error: " + msg);
    }
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
    std::string p = pointer;
    while (true)
    {
        auto it = m_lines.find(p);
        if (it != m_lines.end())
        {
            return it->second;
        }
        if (p.empty())
        {
            return 0;
        }
        p = p.substr(0, p.find_last_of('/'));
    }
}

std::string
JsonDocument::FieldName(const std::string& pointer)
{
    std::string out;
    std::size_t pos = 0;
    while (pos < pointer.size())
    {
        std::size_t next = pointer.find('/', pos + 1);
        std::string token = pointer.substr(pos + 1, next == std::string::npos ? std::string::npos
                                                                             : next - pos - 1);
        bool numeric = !token.empty();
        for (char c : token)
        {
            numeric = numeric && std::isdigit(static_cast<unsigned char>(c));
        }
        if (numeric)
        {
            out += "[" + token + "]";
        }
        else
        {
            out += (out.empty() ? "" : ".") + token;
        }
        if (next == std::string::npos)
        {
            break;
        }
        pos = next;
    }
    return out;
}

void
JsonDocument::Fail(const std::string& pointer, const std::string& message) const
{
    throw InputError(m_file, LineOf(pointer), FieldName(pointer), message);
}

} // namespace ns3
