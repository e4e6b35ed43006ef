import {
  Button,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  Spinner,
} from '@fluentui/react-components';
import { ArrowDownloadRegular, DocumentPdfRegular, DocumentTableRegular } from '@fluentui/react-icons';
import { FORMAT_LABEL, type ReportFormat } from './report-files.tsx';

/** The compact download control: one 'Download' button opening PDF and Excel (loaded on first use). */
export function DownloadMenu(props: {
  disabled: boolean;
  busy: boolean;
  onChoose(format: ReportFormat): void;
}) {
  return (
    <Menu>
      <MenuTrigger disableButtonEnhancement>
        <Button
          icon={props.busy ? <Spinner size="extra-tiny" /> : <ArrowDownloadRegular />}
          disabled={props.disabled}
        >
          Download
        </Button>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          <MenuItem icon={<DocumentPdfRegular />} onClick={() => props.onChoose('pdf')}>
            {FORMAT_LABEL.pdf}
          </MenuItem>
          <MenuItem icon={<DocumentTableRegular />} onClick={() => props.onChoose('xlsx')}>
            {FORMAT_LABEL.xlsx}
          </MenuItem>
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
