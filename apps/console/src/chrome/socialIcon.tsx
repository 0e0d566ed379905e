import {
  IconBrandBluesky,
  IconBrandDiscord,
  IconBrandFacebook,
  IconBrandGithub,
  IconBrandInstagram,
  IconBrandLinkedin,
  IconBrandMastodon,
  IconBrandX,
  IconBrandYoutube,
  IconWorld,
  type Icon,
} from '@tabler/icons-react';

const iconsByNetwork: Record<string, Icon> = {
  bluesky: IconBrandBluesky,
  discord: IconBrandDiscord,
  facebook: IconBrandFacebook,
  github: IconBrandGithub,
  instagram: IconBrandInstagram,
  linkedin: IconBrandLinkedin,
  mastodon: IconBrandMastodon,
  twitter: IconBrandX,
  x: IconBrandX,
  youtube: IconBrandYoutube,
};

/** The brand icon of a social network named in the runtime configuration; a globe for unknown ones. */
export function socialIcon(networkName: string): Icon {
  return iconsByNetwork[networkName.trim().toLowerCase()] ?? IconWorld;
}
