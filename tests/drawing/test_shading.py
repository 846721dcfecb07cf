"""The region pictures without Qt: class colours, paler towards the boundary, white on it."""
import numpy as np

from svmdesk.drawing.shading import (
    LEVEL,
    PALETTE,
    diverging_lut,
    inside_pictures,
    regions_picture,
    sides_pictures,
)


def _rgb(k):
    code = PALETTE[k]
    return np.array([int(code[i:i + 2], 16) for i in (1, 3, 5)])


def test_the_lookup_table_runs_from_one_class_through_white_to_the_other():
    lut = diverging_lut(3, 5)
    assert lut.shape == (256, 4) and (lut[:, 3] == 255).all()
    white = np.array([255, 255, 255])
    for end, k in ((0, 3), (255, 5)):
        expected = (white + 0.55 * (_rgb(k) - white)).astype(np.uint8)
        assert np.abs(lut[end, :3].astype(int) - expected).max() <= 1
    assert (lut[127:129, :3] >= 253).all()


def test_soft_and_hard_sides_follow_the_sign_and_size_of_f():
    values = np.array([[-5.0, -LEVEL, -0.5, 0.0, 0.5, LEVEL, 5.0]], dtype=np.float32)
    soft, hard = sides_pictures(values, (0, 1))
    lut = diverging_lut(0, 1)
    assert (soft[0, 0] == lut[0]).all() and (soft[0, -1] == lut[255]).all()
    assert (hard[0, :3] == lut[0]).all() and (hard[0, 4:] == lut[255]).all()
    assert (hard[0, 3] == lut[128]).all()                  # on the boundary: white
    # paler towards the boundary: the distance from white grows with |f|
    fade = 255 * 3 - soft[0, :, :3].astype(int).sum(axis=1)
    assert fade[0] == fade[1] > fade[2] > fade[3] < fade[4] < fade[5] == fade[6]


def test_each_class_region_is_a_pale_tint_of_its_colour():
    regions = np.arange(len(PALETTE)).reshape(2, -1)
    picture = regions_picture(regions)
    for k in range(len(PALETTE)):
        tint = (255.0 + 0.45 * (_rgb(k) - 255.0)).astype(np.uint8)
        assert (picture[regions == k][0] == [*tint, 255]).all()


def test_a_one_class_region_is_tinted_inside_and_white_outside():
    values = np.array([[-5.0, -0.01, 0.0, 0.01, 0.02, 0.04]], dtype=np.float32)
    soft, hard = inside_pictures(values, 2)
    full = diverging_lut(2, 2)[255]
    assert (soft[0, :2] == 255).all() and (hard[0, :2] == 255).all()   # outside: white
    assert (hard[0, 2:] == full).all()                                   # inside: flat tint
    assert (soft[0, -1] == full).all()          # saturated at the highest f, however small
    fade = 255 * 3 - soft[0, :, :3].astype(int).sum(axis=1)
    assert fade[1] == 0 and fade[2] <= fade[3] < fade[4] < fade[5]     # paler to the edge
    assert (inside_pictures(-np.abs(values) - 1, 2)[0] == 255).all()    # nothing inside
