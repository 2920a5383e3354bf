/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_GTEST_UTIL_H
#define INTELLIGENT_NETWORK_GTEST_UTIL_H

// Helpers shared by the GoogleTest files of the pure core.

#include "ns3/input-error.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <unistd.h>

namespace ns3
{
namespace testutil
{

/// A scratch directory removed at the end of the test.
class TempDir
{
  public:
    TempDir()
    {
        char tmpl[] = "/tmp/in-gtest-XXXXXX";
        char* d = mkdtemp(tmpl);
        if (!d)
        {
            throw std::runtime_error("mkdtemp failed");
        }
        m_path = d;
    }

    ~TempDir()
    {
        std::string cmd = "rm -rf '" + m_path + "'";
        if (std::system(cmd.c_str()) != 0)
        {
            // best effort
        }
    }

    /// Write \p text to file \p name in the directory; returns the full path.
    std::string Write(const std::string& name, const std::string& text) const
    {
        std::string p = m_path + "/" + name;
        std::ofstream(p) << text;
        return p;
    }

    const std::string& Path() const
    {
        return m_path;
    }

  private:
    std::string m_path;
};

/// Run \p fn, expect an InputError naming \p file (suffix), \p line and \p field; return it.
inline InputError
ExpectInputError(const std::function<void()>& fn,
                 const std::string& fileSuffix,
                 std::size_t line,
                 const std::string& field)
{
    try
    {
        fn();
    }
    catch (const InputError& e)
    {
        EXPECT_GE(e.File().size(), fileSuffix.size()) << e.what();
        if (e.File().size() >= fileSuffix.size())
        {
            EXPECT_EQ(e.File().substr(e.File().size() - fileSuffix.size()), fileSuffix)
                << e.what();
        }
        EXPECT_EQ(e.Line(), line) << e.what();
        EXPECT_EQ(e.Field(), field) << e.what();
        // The message names file, line and field for the user.
        std::string what = e.what();
        EXPECT_NE(what.find(fileSuffix), std::string::npos) << what;
        if (line > 0)
        {
            EXPECT_NE(what.find(":" + std::to_string(line) + ":"), std::string::npos) << what;
        }
        if (!field.empty())
        {
            EXPECT_NE(what.find("'" + field + "'"), std::string::npos) << what;
        }
        return e;
    }
    ADD_FAILURE() << "expected an InputError for " << fileSuffix << ":" << line << " " << field;
    return InputError("", 0, "", "");
}

/// Run \p fn, expect an exception of type \p E whose message contains \p fragment.
template <typename E>
void
ExpectThrowContaining(const std::function<void()>& fn, const std::string& fragment)
{
    try
    {
        fn();
    }
    catch (const E& e)
    {
        EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
        return;
    }
    ADD_FAILURE() << "expected an exception mentioning '" << fragment << "'";
}

} // namespace testutil
} // namespace ns3

#endif
