import io

from PIL import Image

from tests.images.pictures import GPS_IFD, photo_with_gps, plain, png_with_text
from viewer.images import THUMBNAIL_SIDE, clean


def opened(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def test_a_served_jpeg_carries_no_exif_gps_or_comment():
    source = photo_with_gps()
    assert opened(source).getexif().get_ifd(GPS_IFD)  # the test's photo does carry them
    cleaned = clean(source, "image/jpeg")
    served = opened(cleaned.data)
    assert cleaned.type == "image/jpeg"
    assert len(served.getexif()) == 0 and not served.getexif().get_ifd(GPS_IFD)
    assert "comment" not in served.info and "exif" not in served.info and "icc_profile" not in served.info
    for data in (cleaned.data, cleaned.thumbnail):
        assert b"Exif" not in data and b"SecretCam" not in data and b"taken at home" not in data


def test_a_served_png_carries_no_text_chunks():
    source = png_with_text()
    assert opened(source).info.get("Comment")
    cleaned = clean(source, "image/png")
    served = opened(cleaned.data)
    assert cleaned.type == "image/png" and served.mode == "RGBA"
    assert set(served.info) <= {"dpi"} and not getattr(served, "text", {})
    for data in (cleaned.data, cleaned.thumbnail):
        assert b"hunter2" not in data and b"xmpmeta" not in data and b"tEXt" not in data and b"iTXt" not in data


def test_the_thumbnail_keeps_the_proportions_within_its_side():
    cleaned = clean(plain("PNG", (1000, 500)), "image/png")
    assert (cleaned.width, cleaned.height) == (1000, 500)
    assert (cleaned.thumbnail_width, cleaned.thumbnail_height) == (THUMBNAIL_SIDE, THUMBNAIL_SIDE // 2)
    assert opened(cleaned.thumbnail).size == (THUMBNAIL_SIDE, THUMBNAIL_SIDE // 2)


def test_gif_and_webp_are_served_as_png():
    assert clean(plain("GIF"), "image/gif").type == "image/png"
    assert clean(plain("WEBP"), "image/webp").type == "image/png"
