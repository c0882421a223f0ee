package org.gridrun.engine.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.gridrun.engine.random.CounterRng;
import org.junit.jupiter.api.Test;

/** torchvision's RandomResizedCrop rules, checked on every crop of many draws with a fixed seed. */
class CropBoxTest {
    @Test
    void everyRandomCropFitsTheImageAndFollowsTheScaleAndRatioRules() {
        int[][] sizes = {{500, 375}, {375, 500}, {40, 30}, {30, 50}, {64, 64}, {1000, 100}, {3, 200}, {1, 1}};
        CounterRng draws = new CounterRng(11, 0);
        for (int[] size : sizes) {
            int width = size[0];
            int height = size[1];
            int fallbacks = 0;
            for (int n = 0; n < 2000; n++) {
                long before = draws.counter();
                CropBox box = CropBox.randomResized(width, height, draws);
                assertEquals(before + CropBox.DRAWS, draws.counter(), "a crop reads a fixed number of draws");
                assertTrue(box.left() >= 0 && box.top() >= 0 && box.left() + box.width() <= width
                        && box.top() + box.height() <= height, box + " inside " + width + "×" + height);
                if (box.equals(CropBox.centred(width, height))) {
                    fallbacks++;
                    continue;
                }
                double fraction = (double) box.width() * box.height() / ((double) width * height);
                double ratio = (double) box.width() / box.height();
                double slack = 1.0 / box.width() + 1.0 / box.height();
                assertTrue(fraction > CropBox.MIN_SCALE * (1 - 2 * slack) - 1e-9
                        && fraction < CropBox.MAX_SCALE * (1 + 2 * slack) + 1e-9, box + " area fraction " + fraction);
                assertTrue(ratio > CropBox.MIN_RATIO * (1 - 2 * slack) && ratio < CropBox.MAX_RATIO * (1 + 2 * slack),
                        box + " ratio " + ratio);
            }
            if (width >= 30 && height >= 30 && Math.max(width, height) <= 2 * Math.min(width, height)) {
                assertTrue(fallbacks < 20, width + "×" + height + " fell back " + fallbacks + " times");
            }
        }
    }

    @Test
    void theFallbackIsTheCentreWithItsRatioClamped() {
        assertEquals(new CropBox(0, 0, 64, 64), CropBox.centred(64, 64));
        assertEquals(new CropBox(0, 30, 30, 40), CropBox.centred(30, 100));
        assertEquals(new CropBox(433, 0, 133, 100), CropBox.centred(1000, 100));
    }

    @Test
    void offsetsCoverEveryPositionThatFits() {
        CounterRng draws = new CounterRng(3, 4);
        boolean[] left = new boolean[64];
        for (int n = 0; n < 5000; n++) {
            CropBox box = CropBox.randomResized(64, 64, draws);
            if (box.width() <= 24) {
                left[box.left()] = true;
            }
        }
        for (int x = 0; x <= 64 - 24; x++) {
            assertTrue(left[x], "a crop at most 24 wide started at column " + x);
        }
    }
}
