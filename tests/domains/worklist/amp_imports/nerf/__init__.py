from .raymarch import march_rays, composite_rays
from .encoder import freq_encode
