/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: the IDX reader (plain and gzip), malformed files, and the Fashion-MNIST option of
// the classification task on a small data set written here (and on Debian's
// dataset-fashion-mnist when it is installed).

#include "training-gtest-util.h"

#include "ns3/classification-task.h"
#include "ns3/colocated-trainer.h"
#include "ns3/idx-file.h"
#include "ns3/input-error.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sys/stat.h>

using namespace ns3;
using namespace ns3::testutil;

namespace
{

std::string
TempPath(const std::string& name)
{
    return ::testing::TempDir() + "idx-gtest-" + name;
}

/// Expect InputError naming \p field when reading \p path.
void
ExpectInputError(const std::string& path, const std::string& field)
{
    try
    {
        IdxFile::Read(path);
        ADD_FAILURE() << "no error reading " << path;
    }
    catch (const InputError& e)
    {
        EXPECT_EQ(e.Field(), field) << e.what();
        EXPECT_EQ(e.File(), path);
    }
}

/// A Fashion-MNIST-shaped folder: \p train and \p test images of 28 x 28 whose pixels encode
/// the class (class c: pixel c is 255, the rest noise below 40), labels cycling over 0..9.
std::string
MiniFashion(std::size_t train, std::size_t test)
{
    std::string dir = TempPath("fashion");
    mkdir(dir.c_str(), 0755);
    auto write = [&](const std::string& prefix, std::size_t n) {
        std::vector<uint8_t> images(n * 784);
        std::vector<uint8_t> labels(n);
        for (std::size_t i = 0; i < n; ++i)
        {
            labels[i] = static_cast<uint8_t>(i % 10);
            for (std::size_t j = 0; j < 784; ++j)
            {
                images[i * 784 + j] = static_cast<uint8_t>((i * 31 + j * 17) % 40);
            }
            images[i * 784 + labels[i]] = 255;
        }
        IdxFile::Write(dir + "/" + prefix + "-images-idx3-ubyte",
                       {static_cast<uint32_t>(n), 28, 28}, images);
        IdxFile::Write(dir + "/" + prefix + "-labels-idx1-ubyte", {static_cast<uint32_t>(n)},
                       labels);
        for (const char* kind : {"-images-idx3-ubyte", "-labels-idx1-ubyte"})
        {
            std::string path = dir + "/" + prefix + kind;
            EXPECT_EQ(std::system(("gzip -f '" + path + "'").c_str()), 0);
        }
    };
    write("train", train);
    write("t10k", test);
    return dir;
}

ProxyTaskConfig
FashionConfig(const std::string& dir, std::size_t islands, std::size_t rows, double alpha)
{
    ProxyTaskConfig c;
    c.dataset = "fashion-mnist";
    c.datasetDir = dir;
    c.islands = islands;
    c.samplesPerIsland = rows;
    c.heldOutSamples = 100;
    c.hidden = {16};
    c.alpha = alpha;
    c.seed = 3;
    return c;
}

} // namespace

TEST(IdxFile, ReadsWhatItWritesPlainAndGzipped)
{
    std::string path = TempPath("plain");
    std::vector<uint8_t> values{1, 2, 3, 4, 5, 6};
    IdxFile::Write(path, {2, 3}, values);
    IdxFile f = IdxFile::Read(path);
    EXPECT_EQ(f.Sizes(), (std::vector<uint32_t>{2, 3}));
    EXPECT_EQ(f.Values(), values);
    EXPECT_EQ(f.Items(), 2u);
    EXPECT_EQ(f.ItemSize(), 3u);
    ASSERT_EQ(std::system(("gzip -kf '" + path + "'").c_str()), 0);
    IdxFile g = IdxFile::Read(path + ".gz");
    EXPECT_EQ(g.Values(), values);
    // Hand-made header: 0 0 8 1, size 258 big-endian.
    std::ofstream(TempPath("hand"), std::ios::binary)
        << std::string("\0\0\x08\x01\0\0\x01\x02", 8) << std::string(258, 'a');
    EXPECT_EQ(IdxFile::Read(TempPath("hand")).Items(), 258u);
}

TEST(IdxFile, MalformedFilesNameTheField)
{
    ExpectInputError(TempPath("missing"), "file");
    ExpectInputError(TempPath("missing.gz"), "file");
    auto write = [](const std::string& name, const std::string& bytes) {
        std::ofstream(TempPath(name), std::ios::binary) << bytes;
        return TempPath(name);
    };
    ExpectInputError(write("magic", std::string("\1\0\x08\x01\0\0\0\1a", 9)), "magic");
    ExpectInputError(write("type", std::string("\0\0\x0d\x01\0\0\0\1a", 9)), "magic");
    ExpectInputError(write("nodims", std::string("\0\0\x08\0", 4)), "magic");
    ExpectInputError(write("cut", std::string("\0\0\x08\x02\0\0\0\1", 8)), "dimensions");
    ExpectInputError(write("zero", std::string("\0\0\x08\x01\0\0\0\0", 8)), "dimensions");
    ExpectInputError(write("short", std::string("\0\0\x08\x01\0\0\0\3ab", 10)), "data");
    ExpectInputError(write("long", std::string("\0\0\x08\x01\0\0\0\1ab", 10)), "data");
    ExpectInputError(write("huge", std::string("\0\0\x08\x02\xff\xff\xff\xff\xff\xff\xff\xff", 12)),
                     "data");
    ExpectInputError(write("notgz.gz", "plain text"), "file");
}

TEST(IdxFile, FashionMnistOptionBuildsSkewedShardsFromTheFiles)
{
    std::string dir = MiniFashion(600, 200);
    auto task = std::make_shared<const ClassificationTask>(FashionConfig(dir, 5, 40, 0.05));
    EXPECT_EQ(task->Config().inputs, 784u);
    EXPECT_EQ(task->Config().classes, 10u);
    EXPECT_EQ(task->Dimension(), (784u + 1) * 16 + (16u + 1) * 10);
    for (std::size_t k = 0; k < 5; ++k)
    {
        std::vector<std::size_t> counts = task->ClassCounts(k);
        EXPECT_EQ(std::accumulate(counts.begin(), counts.end(), std::size_t{0}), 40u);
        EXPECT_EQ(counts[k], *std::max_element(counts.begin(), counts.end())); // rotated
        for (std::size_t cls = 0; cls < 10; ++cls) // the Dirichlet counts
        {
            EXPECT_LE(std::abs(static_cast<double>(counts[cls]) - 40 * task->ClassShares()(k, cls)),
                      1.0);
        }
        // Every row is a real image of its class: pixel `label` is 255 / 255.
        for (std::size_t r = 0; r < 40; ++r)
        {
            int y = task->Labels(k)[r];
            EXPECT_DOUBLE_EQ(task->Features(k)(static_cast<Eigen::Index>(r), y), 1.0);
        }
    }
    EXPECT_EQ(task->HeldOutLabels().size(), 100u);
    // Colocated training on iid shards learns the (easy) mini set.
    LocalOptimizerConfig sgd = Inner(0.1, 16);
    sgd.momentum = 0.9;
    auto iid = std::make_shared<const ClassificationTask>(FashionConfig(dir, 5, 40, INFINITY));
    ColocatedTrainer colocated(iid, sgd, 1.0);
    colocated.Steps(100);
    EXPECT_GT(colocated.HeldOut().accuracy, 0.9);
    // Bad: too many held-out rows, a missing folder.
    ProxyTaskConfig tooMany = FashionConfig(dir, 5, 40, 0.05);
    tooMany.heldOutSamples = 201;
    ExpectInvalid([&]() { ClassificationTask t(tooMany); }, "exceeds the 200");
    EXPECT_THROW(ClassificationTask t(FashionConfig(dir + "-none", 5, 40, 0.05)), InputError);
    ProxyTaskConfig unknown = FashionConfig(dir, 5, 40, 0.05);
    unknown.dataset = "mnist";
    ExpectInvalid([&]() { ProxyTask::Create(unknown); }, "unknown dataset 'mnist'");
}

TEST(IdxFile, DebiansFashionMnistWhenInstalled)
{
    const std::string dir = ProxyTaskConfig().datasetDir;
    if (!std::ifstream(dir + "/train-images-idx3-ubyte.gz"))
    {
        GTEST_SKIP() << "dataset-fashion-mnist is not installed (" << dir << ")";
    }
    auto task = std::make_shared<const ClassificationTask>(FashionConfig(dir, 9, 200, 0.1));
    double heldOutShareOfClass0 = 0;
    for (int y : task->HeldOutLabels())
    {
        heldOutShareOfClass0 += y == 0 ? 0.01 : 0;
    }
    EXPECT_NEAR(heldOutShareOfClass0, 0.1, 0.08); // 100 iid test images, 10 balanced classes
    LocalOptimizerConfig sgd = Inner(0.05, 32);
    sgd.momentum = 0.9;
    ColocatedTrainer colocated(task, sgd, 1.0);
    double before = colocated.HeldOut().accuracy;
    colocated.Steps(200);
    EXPECT_GT(colocated.HeldOut().accuracy, before + 0.3);
}
